import Foundation
import TestSupport
import Testing

@testable import DNSSD

/// browse JSON carries names and TXT values exactly: the exact UTF-8 text in `instance` and
/// `txt`, and for bytes that are not UTF-8 the presentation form beside it. The display form
/// (`\DDD`) is for terminals only: in JSON it could not be told from a literal backslash.
@Suite("browse JSON: exact names and TXT values")
struct ExactJSONTests {
    func roundTrip(_ beacon: GatewayBeacon) throws -> (GatewayBeacon, [String: Any]) {
        let data = try JSONEncoder().encode(beacon)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (try JSONDecoder().decode(GatewayBeacon.self, from: data), object)
    }

    func beacon(_ name: [UInt8], txt: [[UInt8]]) throws -> GatewayBeacon {
        GatewayBeacon(
            instance: try InstanceName(bytes: name), serviceType: .gateway, domain: .local, source: .mdns, host: "h.local.",
            port: 18789, addresses: [IPAddress("100.64.0.1")!], txt: try TXTRecord(strings: txt))
    }

    @Test("a control character travels as itself; a literal backslash and digits stay a backslash and digits")
    func controlAndBackslash() throws {
        let control = try beacon(Array("a\u{01}b\nc".utf8), txt: [Array("note=x\u{1B}[2Jy".utf8)])
        let (back, object) = try roundTrip(control)
        #expect(object["instance"] as? String == "a\u{01}b\nc")
        #expect(object["instancePresentation"] == nil, "UTF-8 needs no second field")
        #expect((object["txt"] as? [String: String])?["note"] == "x\u{1B}[2Jy")
        #expect(back.instance.bytes == control.instance.bytes && back.txt == control.txt)

        let literal = try beacon(Array("a\\001b".utf8), txt: [])
        let (literalBack, literalObject) = try roundTrip(literal)
        #expect(literalObject["instance"] as? String == "a\\001b")
        #expect(literalBack.instance.bytes == Array("a\\001b".utf8), "not the byte 1")
    }

    @Test("bytes that are not UTF-8: U+FFFD in the text, the exact bytes in presentation form")
    func notUTF8() throws {
        let name: [UInt8] = [0x53, 0xFF, 0x2E, 0x5C, 0x00]
        let value: [UInt8] = [0xC3, 0x28, 0x22]
        let original = try beacon(name, txt: [Array("v=".utf8) + value, Array("role=gateway".utf8)])
        let (back, object) = try roundTrip(original)
        #expect(object["instance"] as? String == "S\u{FFFD}.\\\u{0}")
        #expect(object["instancePresentation"] as? String == #"S\255\.\\\000"#)
        #expect((object["txtPresentation"] as? [String: String]) == ["v": #"\195(\""#])
        #expect(back.instance.bytes == name)
        #expect(back.attributes["v"]?.value == value)
        #expect(back.attributes["role"]?.value == Array("gateway".utf8))
    }

    @Test("an inventory from an older clawnet (no presentation fields) still reads")
    func olderDocument() throws {
        let json =
            #"{"instance":"Studio (OpenClaw)","serviceType":"_openclaw-gw._tcp","domain":"local.","host":"studio.local.","port":18789,"addresses":["100.64.0.1"],"txt":{"role":"gateway","gatewayPort":"18789","flag":true}}"#
        let decoded = try JSONDecoder().decode(GatewayBeacon.self, from: Data(json.utf8))
        #expect(decoded.instance.bytes == Array("Studio (OpenClaw)".utf8))
        #expect(decoded.attributes["flag"]?.value == nil && decoded.attributes["flag"] != nil)
    }

    @Test("any name and TXT value of 1 to 63 random bytes survives JSON encode and decode (property)")
    func property() throws {
        var random = SeededRandom()
        for _ in 0..<2000 {
            let name = random.bytes(Int.random(in: 1...63, using: &random))
            let value = random.bytes(Int.random(in: 0...63, using: &random))
            let original = try beacon(name, txt: [Array("k=".utf8) + value])
            let (back, _) = try roundTrip(original)
            #expect(back.instance.bytes == name, "\(SafeText.display(name)) \(random.seedNote)")
            #expect(back.attributes["k"]?.value == value, "\(SafeText.display(value)) \(random.seedNote)")
        }
    }
}
