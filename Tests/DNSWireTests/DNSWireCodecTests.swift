import DNSSD
import TestSupport
import Testing

@testable import DNSWire

/// Builds DNS messages byte by byte, independent of ldns, for golden vectors.
struct MessageBuilder {
    var bytes: [UInt8] = []
    private var counts = [0, 0, 0, 0]

    init(id: UInt16 = 0x1234, flags: UInt16 = 0x8400) {
        bytes = [UInt8(id >> 8), UInt8(id & 0xFF), UInt8(flags >> 8), UInt8(flags & 0xFF), 0, 0, 0, 0, 0, 0, 0, 0]
    }

    static func name(_ text: String) -> [UInt8] { try! DNSName(presentation: text).wire }

    mutating func question(_ name: String, _ type: UInt16) {
        bytes += Self.name(name) + [UInt8(type >> 8), UInt8(type & 0xFF), 0, 1]
        bump(0)
    }

    mutating func record(section: Int, _ name: String, _ type: UInt16, ttl: UInt32 = 60, rdata: [UInt8]) {
        bytes += Self.name(name) + [UInt8(type >> 8), UInt8(type & 0xFF), 0, 1]
        bytes += [UInt8(ttl >> 24), UInt8(ttl >> 16 & 0xFF), UInt8(ttl >> 8 & 0xFF), UInt8(ttl & 0xFF)]
        bytes += [UInt8(rdata.count >> 8), UInt8(rdata.count & 0xFF)] + rdata
        bump(section)
    }

    private mutating func bump(_ section: Int) {
        counts[section] += 1
        bytes[4 + section * 2] = UInt8(counts[section] >> 8)
        bytes[5 + section * 2] = UInt8(counts[section] & 0xFF)
    }

    static func srv(_ priority: UInt16, _ weight: UInt16, _ port: UInt16, _ target: String) -> [UInt8] {
        [priority, weight, port].flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } + name(target)
    }
}

@Suite("DNS wire codec (ldns)")
struct DNSWireCodecTests {
    @Test("a query round-trips through ldns with its id, name and type")
    func queryRoundTrip() throws {
        let name = try DNSName(presentation: #"Studio\032\(OpenClaw\)._openclaw-gw._tcp.openclaw.internal."#)
        let wire = try DNSWireCodec.query(name: name, type: .srv, id: 0xBEEF)
        #expect(wire[0] == 0xBE && wire[1] == 0xEF)
        #expect(wire[2] & 0x01 == 0x01, "recursion desired")
        let decoded = try DNSWireCodec.decode(wire)
        #expect(decoded.id == 0xBEEF)
        #expect(decoded.question?.name == name)
        #expect(decoded.question?.type == .srv)
        #expect(!decoded.isResponse)
        #expect(wire.count > 12 + name.wire.count + 4, "carries an EDNS0 OPT record")
    }

    @Test("a DNS-SD answer decodes record by record (golden vector)")
    func decodesDNSSDAnswer() throws {
        var builder = MessageBuilder()
        let instance = #"Studio\032\(OpenClaw\)._openclaw-gw._tcp.openclaw.internal."#
        builder.question("_openclaw-gw._tcp.openclaw.internal.", 12)
        builder.record(section: 1, "_openclaw-gw._tcp.openclaw.internal.", 12, rdata: MessageBuilder.name(instance))
        builder.record(section: 3, instance, 33, ttl: 120, rdata: MessageBuilder.srv(0, 5, 18789, "studio.openclaw.internal."))
        builder.record(section: 3, instance, 16, rdata: [12] + Array("role=gateway".utf8) + [0] + [3] + Array("a=b".utf8))
        builder.record(section: 3, "studio.openclaw.internal.", 1, rdata: [100, 101, 102, 103])
        builder.record(
            section: 3, "studio.openclaw.internal.", 28,
            rdata: [0xFD, 0x7A, 0x11, 0x5C, 0xA1, 0xE0] + [UInt8](repeating: 0, count: 9) + [1])
        let message = try DNSWireCodec.decode(builder.bytes)
        #expect(message.id == 0x1234 && message.isResponse && message.authoritative && !message.truncated)
        #expect(message.rcode == .noError)
        #expect(message.answers.count == 1)
        guard case .ptr(let target) = message.answers[0].data else {
            Issue.record("PTR expected")
            return
        }
        #expect(String(decoding: target.first!, as: UTF8.self) == "Studio (OpenClaw)")
        #expect(message.additional.count == 4)
        #expect(
            message.additional[0].data
                == .srv(priority: 0, weight: 5, port: 18789, target: try DNSName(presentation: "studio.openclaw.internal.")))
        #expect(message.additional[0].ttl == 120)
        guard case .txt(let txt) = message.additional[1].data else {
            Issue.record("TXT expected")
            return
        }
        #expect(txt.strings == [Array("role=gateway".utf8), [], Array("a=b".utf8)])
        #expect(message.additional[2].data == .a(IPAddress("100.101.102.103")!))
        #expect(message.additional[3].data == .aaaa(IPAddress("fd7a:115c:a1e0::1")!))
    }

    @Test(
        "response codes and the TC bit are read",
        arguments: [(0x8183 as UInt16, RCode.nxDomain, false), (0x8382, .servFail, true), (0x8185, .refused, false)])
    func rcodes(flags: UInt16, rcode: RCode, truncated: Bool) throws {
        var builder = MessageBuilder(flags: flags)
        builder.question("x.example.", 1)
        let message = try DNSWireCodec.decode(builder.bytes)
        #expect(message.rcode == rcode)
        #expect(message.truncated == truncated)
    }

    @Test(
        "hostile messages are errors, not traps",
        arguments: [
            [UInt8](), [0, 1, 2], [0x12, 0x34, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 63, 65],
            // a compression pointer to itself
            [0x12, 0x34, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 12, 0, 1, 0, 1],
            // an answer whose RDLENGTH runs past the end
            [0x12, 0x34, 0x81, 0x80, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 60, 0xFF, 0xFF, 1, 2],
        ])
    func hostile(bytes: [UInt8]) {
        #expect(throws: DNSWireError.self) { try DNSWireCodec.decode(bytes) }
        // In clawnet's words: ldns's status texts ("Syntax error", "Error in ...") never reach a user.
        do { _ = try DNSWireCodec.decode(bytes) } catch {
            let text = "\(error)"
            #expect(!text.contains("ldns_") && !text.contains("Error ") && !text.contains("Syntax error"), "\(text)")
        }
    }

    @Test("random bytes never trap the decoder (property)")
    func randomBytes() {
        var random = SeededRandom()
        var decoded = 0
        for _ in 0..<3000 {
            var bytes = random.bytes(Int.random(in: 0...200, using: &random))
            // Half of them look like a response with one question, so ldns reads further in.
            if bytes.count > 12, Bool.random(using: &random) {
                bytes[4] = 0
                bytes[5] = 1
                bytes[2] |= 0x80
            }
            if (try? DNSWireCodec.decode(bytes)) != nil { decoded += 1 }
        }
        // Surviving is the property; a decoder that accepted most noise would be suspect.
        #expect(decoded < 3000, "\(decoded) of 3000 random messages decoded, \(random.seedNote)")
    }

    @Test("a TXT of 200 strings of 255 bytes decodes whole")
    func hugeTXT() throws {
        var builder = MessageBuilder()
        builder.question("big.example.", 16)
        let strings = (0..<200).map { index in [UInt8](repeating: UInt8(65 + index % 26), count: 255) }
        builder.record(section: 1, "big.example.", 16, rdata: strings.flatMap { [255] + $0 })
        let message = try DNSWireCodec.decode(builder.bytes)
        guard case .txt(let txt) = message.answers.first?.data else {
            Issue.record("TXT expected")
            return
        }
        #expect(txt.strings.count == 200)
        #expect(txt.strings.allSatisfy { $0.count == 255 })
    }

    @Test("names compare case-insensitively and know their parents")
    func names() throws {
        let a = try DNSName(presentation: "Studio._openclaw-gw._tcp.OpenClaw.Internal.")
        let b = try DNSName(presentation: "studio._OPENCLAW-GW._tcp.openclaw.internal")
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a.isSubdomain(of: try DNSName(presentation: "openclaw.internal.")))
        #expect(!a.isSubdomain(of: try DNSName(presentation: "internal.example.")))
        #expect(a.parent.description == "_openclaw-gw._tcp.OpenClaw.Internal.")
        #expect(try #require(throws: DNSSDError.self) { try DNSName(labels: [[UInt8](repeating: 65, count: 64)]) }.code == .name)
        #expect(
            try #require(throws: DNSSDError.self) { try DNSName(labels: Array(repeating: [UInt8](repeating: 65, count: 63), count: 5)) }
                .code == .name)
    }
}
