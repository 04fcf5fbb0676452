import DNSSD

extension ConnectRequest {
    /// The request frame without a device, written out directly: watch sends one per probe, a
    /// thousand Gateways every interval, and JSONEncoder costs many allocations per frame. The
    /// bytes are `encodedFrame`'s (sorted keys, unescaped slashes), which a test holds it to;
    /// nil when a string would need escaping (the encoder then writes the frame).
    func probeFrame() -> [UInt8]? {
        let token = credentials.token?.forConnectRequest
        guard !asDevice, Self.isPlainJSON(id), token.map(Self.isPlainJSON) ?? true else { return nil }
        var frame: [UInt8] = []
        frame.reserveCapacity(Self.probeFrameCapacity)
        frame += #"{"id":""#.utf8
        frame += id.utf8
        frame += #"","method":"connect","params":{"#.utf8
        if let token {
            frame += #""auth":{"token":""#.utf8
            frame += token.utf8
            frame += #""},"#.utf8
        }
        frame += #""caps":[],"client":{"id":"cli","mode":"probe","platform":""#.utf8
        frame += Self.platform.utf8
        frame += #"","version":""#.utf8
        frame += Self.clientVersion.utf8
        frame += #""},"maxProtocol":\#(range.max),"minProtocol":\#(range.min),"#.utf8
        frame += #""role":"operator","scopes":["operator.read"]},"type":"req"}"#.utf8
        return frame
    }

    /// Room for the frame with a UUID id and no token, so that it is written without growing.
    private static let probeFrameCapacity = 256

    /// Printable ASCII other than `"` and `\`: JSON that needs no escaping, as JSONEncoder writes it.
    private static func isPlainJSON(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }
}
