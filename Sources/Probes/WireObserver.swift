import NIOCore

/// The first thing on a probe's connection: counts what the server sends, keeps its first
/// bytes, and reads a TLS ServerHello (cipher suite and chosen version, which are plaintext
/// even in TLS 1.3). Every byte is passed on unchanged.
final class WireObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private(set) var bytesReceived = 0
    private(set) var firstBytes: [UInt8] = []
    private(set) var serverHello: ServerHello.Parse = .needMore
    private var pending: [UInt8] = []

    /// A ServerHello arrives in the first TLS record, at most 2^14 bytes of plaintext
    /// (RFC 8446 §5.1): past that, it is not coming.
    static let helloLimit = 16_384

    /// The most one probe connection reads. A Gateway's TLS handshake (a certificate of a
    /// KiB or two), its /healthz answer or its WebSocket opening with connect.challenge are a
    /// few KiB; the body and first-frame limits are 64 KiB, and the connect answer's (hello-ok
    /// with its snapshot) 1 MiB. Past this the server floods, and the connection is closed. A
    /// probe has at most four connections open at once, so what one server can make clawnet
    /// hold is bounded by four times this, plus the decoders' own buffers (each smaller than
    /// what they were given).
    static let byteLimit = 2 * 1024 * 1024

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        bytesReceived += buffer.readableBytes
        if bytesReceived > Self.byteLimit {
            context.fireErrorCaught(TooMuchData())
            context.close(promise: nil)
            return
        }
        if firstBytes.count < 64 { firstBytes += buffer.readableBytesView.prefix(64 - firstBytes.count) }
        if case .needMore = serverHello, pending.count < Self.helloLimit {
            pending += buffer.readableBytesView.prefix(Self.helloLimit - pending.count)
            serverHello = ServerHello.parse(pending)
        }
        context.fireChannelRead(data)
    }
}

/// What a TLS server's first handshake message says.
public struct ServerHello: Sendable, Equatable {
    package let cipherSuite: UInt16
    /// The version the server chose: supported_versions (TLS 1.3) or the legacy field.
    package let version: UInt16

    public enum Parse: Sendable, Equatable {
        case needMore
        case hello(ServerHello)
        /// The server answered with a TLS alert (level 2 is fatal).
        case alert(description: UInt8)
        /// The first bytes are not a TLS handshake at all.
        case notTLS
    }

    public var protocolVersion: TLSProtocolVersion { TLSProtocolVersion(wire: version) }

    public var cipherName: String {
        let names: [UInt16: String] = [
            0x1301: "TLS_AES_128_GCM_SHA256", 0x1302: "TLS_AES_256_GCM_SHA384", 0x1303: "TLS_CHACHA20_POLY1305_SHA256",
            0xC02B: "ECDHE-ECDSA-AES128-GCM-SHA256", 0xC02C: "ECDHE-ECDSA-AES256-GCM-SHA384",
            0xC02F: "ECDHE-RSA-AES128-GCM-SHA256", 0xC030: "ECDHE-RSA-AES256-GCM-SHA384",
            0xCCA8: "ECDHE-RSA-CHACHA20-POLY1305", 0xCCA9: "ECDHE-ECDSA-CHACHA20-POLY1305",
        ]
        return names[cipherSuite] ?? "0x" + String(cipherSuite, radix: 16)
    }

    /// Reads a TLS record carrying a ServerHello (RFC 8446 §4.1.3) from the start of `bytes`.
    public static func parse(_ bytes: [UInt8]) -> Parse {
        guard let type = bytes.first else { return .needMore }
        if type == 21 {
            return bytes.count >= 7 ? .alert(description: bytes[6]) : .needMore
        }
        guard type == 22 else { return .notTLS }
        guard bytes.count >= 9 else { return bytes.count >= 3 && bytes[1] != 3 ? .notTLS : .needMore }
        guard bytes[1] == 3, bytes[5] == 2 else { return .notTLS }
        let length = Int(bytes[6]) << 16 | Int(bytes[7]) << 8 | Int(bytes[8])
        guard bytes.count >= 9 + length else { return .needMore }
        let body = Array(bytes[9..<(9 + length)])
        var index = 2 + 32
        guard index < body.count else { return .notTLS }
        index += 1 + Int(body[index])
        guard index + 3 <= body.count else { return .notTLS }
        let cipher = UInt16(body[index]) << 8 | UInt16(body[index + 1])
        var version = UInt16(body[0]) << 8 | UInt16(body[1])
        index += 3
        if index + 2 <= body.count {
            let end = min(body.count, index + 2 + (Int(body[index]) << 8 | Int(body[index + 1])))
            index += 2
            while index + 4 <= end {
                let extensionType = UInt16(body[index]) << 8 | UInt16(body[index + 1])
                let extensionLength = Int(body[index + 2]) << 8 | Int(body[index + 3])
                if extensionType == 0x002B, extensionLength == 2, index + 6 <= end {
                    version = UInt16(body[index + 4]) << 8 | UInt16(body[index + 5])
                }
                index += 4 + extensionLength
            }
        }
        return .hello(ServerHello(cipherSuite: cipher, version: version))
    }
}
