import DNSSD
import DNSWire
import Foundation
import TestSupport
import Testing

@testable import Zones

private let ns = [IPAddress("100.64.0.53")!]

private func zone(_ gateways: [ZoneGateway], domain name: DomainName = domain) -> ZoneContent {
    ZoneContent(domain: name, gateways: gateways, nameServerAddresses: ns)
}

private func gateway(_ name: [UInt8], host: String, ip: String, port: Int = 18789, txt: TXTRecord? = nil) throws -> ZoneGateway {
    ZoneGateway(
        instance: try InstanceName(bytes: name), hostLabel: host, addresses: [IPAddress(ip)!], port: port,
        txt: try txt ?? TXTRecord(pairs: [(key: "role", value: "gateway"), (key: "gatewayPort", value: String(port))]))
}

/// What the attack on `zone generate` found, one reproducer per test, each closing its class.
@Suite("zone generate: bounded renaming, validated values, nothing injected")
struct ZoneSafetyTests {
    @Test("two Gateways sharing a 63-byte name: the rename fits in 63 bytes, on a UTF-8 boundary, and ends")
    func longNameClash() throws {
        let ascii = Array(String(repeating: "n", count: 63).utf8)
        // 31 two-byte characters and one byte: a cut at 59 bytes would split a character.
        let multibyte = Array((String(repeating: "é", count: 31) + "x").utf8)
        for name in [ascii, multibyte] {
            let gateways = try (0..<12).map { try gateway(name, host: "h\($0)", ip: "100.64.1.\($0 + 1)") }
            let rendered = try ZoneWriter.render(zone(gateways), serial: 1)
            let instances = ZoneFile.read(text: rendered.text).records.compactMap { record -> [UInt8]? in
                if case .ptr(let target) = record.data { return target.labels.first }
                return nil
            }
            #expect(instances.count == 12 && Set(instances).count == 12, "\(instances.map { SafeText.display($0) })")
            for instance in instances {
                #expect(instance.count <= 63)
                #expect(String(validating: instance, as: UTF8.self) != nil, "cut inside a character: \(SafeText.display(instance))")
            }
            #expect(
                rendered.notes.contains {
                    guard case .instanceRenamed(_, let published) = $0 else { return false }
                    return published.hasSuffix(" (11)")
                }, "\(rendered.notes)")
        }
    }

    @Test("150 Gateways sharing a 63-byte host label: every renamed label is at most 63 bytes and unique")
    func longHostLabelClash() throws {
        let label = String(repeating: "h", count: 63)
        let gateways = try (0..<150).map { try gateway(Array("gw\($0)".utf8), host: label, ip: "100.64.\($0 / 200).\($0 % 200 + 1)") }
        let rendered = try ZoneWriter.render(zone(gateways), serial: 1)
        let hosts = ZoneFile.read(text: rendered.text).records.compactMap { record -> [UInt8]? in
            if case .srv(_, _, _, let target) = record.data { return target.labels.first }
            return nil
        }
        #expect(Set(hosts).count == 150)
        #expect(hosts.allSatisfy { $0.count <= 63 }, "\(hosts.filter { $0.count > 63 }.map { String(decoding: $0, as: UTF8.self) })")
    }

    @Test("a host label may not take ns1, the name server's")
    func nameServerLabel() throws {
        let rendered = try ZoneWriter.render(zone([try gateway(Array("a".utf8), host: "ns1", ip: "100.64.0.9")]), serial: 1)
        #expect(rendered.text.contains("ns1-2 IN A 100.64.0.9"), "\(rendered.text)")
        #expect(!rendered.text.contains("ns1 IN A 100.64.0.9"))
    }

    @Test("an IPv6 zone id never reaches a zone or a Corefile")
    func zoneIDs() throws {
        #expect(IPAddress("fd00::1%x\n$INCLUDE /etc/shadow") == nil, "a zone id is an interface name, not text")
        #expect(IPAddress("fe80::1%eth0")?.zone == "eth0")
        #expect(
            try #require(throws: DNSSDError.self) { try GatewaySpec.parse("host=a,ip=fd00::1%x\n$INCLUDE /etc/shadow") }.code
                == .gatewaySpec)
        do {
            _ = try GatewaySpec.parse("host=a,ip=fd00::1%eth0")
            Issue.record("a spec with a zone id parsed")
        } catch {
            #expect(error.message.contains("zone id"), "\(error.message)")
        }
        // Defence in depth: a scoped address that gets this far is written without its zone.
        let scoped = ZoneGateway(
            instance: try InstanceName(decoded: "a"), hostLabel: "a", addresses: [IPAddress("fd00::1%eth0")!], port: 1,
            txt: try TXTRecord(pairs: [(key: "role", value: "gateway")]))
        let text = try ZoneWriter.render(
            ZoneContent(domain: domain, gateways: [scoped], nameServerAddresses: [IPAddress("fd00::53%eth0")!]), serial: 1
        ).text
        #expect(!text.contains("%"), "\(text)")
        let stanza = try CorefileWriter.stanza(domain: domain, bind: [IPAddress("fd00::53%eth0")!], zonePath: "/z.db")
        #expect(stanza.contains("bind fd00::53\n"), "\(stanza)")
    }

    @Test(
        "paths written into a Corefile: control characters, quotes, backslashes and {$ refused; white space quoted",
        arguments: [
            ("/srv/zones/a.db", "/srv/zones/a.db"), ("/srv/my zones/a.db", "\"/srv/my zones/a.db\""), ("/srv/#a.db", "\"/srv/#a.db\""),
            ("/srv/a{b}.db", "\"/srv/a{b}.db\""),
        ])
    func corefilePaths(path: String, token: String) throws {
        #expect(try CorefileWriter.pathToken(path) == token)
    }

    @Test(
        "paths CoreDNS would misread are refused",
        arguments: [
            ("/srv/a\n}\n. {\n forward . 9.9.9.9\n}", ZoneError.Code.pathControlCharacter("\n")), ("/a\"b", .pathCorefileSyntax),
            ("/a\\b", .pathCorefileSyntax), ("/{$HOME}", .pathCorefileSyntax), ("/{%X%}", .pathCorefileSyntax),
            ("/a\u{1B}b", .pathControlCharacter("\u{1B}")),
        ])
    func badCorefilePaths(path: String, code: ZoneError.Code) {
        #expect(throws: ZoneError(code)) { try CorefileWriter.pathToken(path) }
    }

    @Test("every value is checked before writing: port, name lengths, TXT size, an address; nothing written")
    func unwritableGateways() throws {
        // 193 bytes on the wire: `a._openclaw-gw._tcp` fits under it, a 63-byte host label does not.
        let longDomain = try DomainName(validating: (0..<3).map { _ in String(repeating: "d", count: 63) }.joined(separator: "."))
        let bigTXT = try TXTRecord(strings: (0..<300).map { Array("k\($0)=".utf8) + [UInt8](repeating: 0x78, count: 240) })
        let longHost = String(repeating: "h", count: 63)
        let rdata = bigTXT.wire.count
        let a = try InstanceName(decoded: "a")
        let cases: [(ZoneGateway, DomainName, ZoneGateway.Problem.Kind?)] = [
            (try gateway(Array("a".utf8), host: "a", ip: "100.64.0.1", port: 70_000), domain, .port(70_000)),
            (
                try gateway(Array("a".utf8), host: longHost, ip: "100.64.0.1"), longDomain,
                .srvTargetTooLong(host: longHost, domain: longDomain)
            ),
            (
                try gateway([UInt8](repeating: 0x61, count: 63), host: "h", ip: "100.64.0.1"), longDomain,
                .instanceNameTooLong(type: .gateway, domain: longDomain)
            ),
            (
                try gateway(Array("a".utf8), host: "a", ip: "100.64.0.1", txt: bigTXT), domain,
                .txtTooLarge(
                    rdata: rdata,
                    answer: ZoneWriter.answerBytes(owner: try DNSName(instance: a, type: .gateway, domain: domain), rdata: rdata))
            ),
            (
                ZoneGateway(instance: try InstanceName(decoded: "a"), hostLabel: "a", addresses: [], port: 1, txt: .empty), domain,
                .noAddress(host: "a", domain: domain)
            ),
            (
                try gateway(
                    Array("a".utf8), host: "a", ip: "100.64.0.1", txt: TXTRecord(pairs: [(key: "gatewayPort", value: "18790")])),
                domain, .txtPortMismatch(advertised: 18790, port: 18789)
            ),
            (
                try gateway(
                    Array("a".utf8), host: "a", ip: "100.64.0.1",
                    txt: TXTRecord(pairs: [(key: "gatewayTls", value: "1"), (key: "gatewayTlsSha256", value: "zz")])),
                domain, nil
            ),
        ]
        for (gateway, domain, kind) in cases {
            let problem = try #require(gateway.problem(domain: domain), "\(String(describing: kind))")
            if let kind {
                #expect(problem == ZoneGateway.Problem(gateway: gateway.instance.displayName, kind), "\(problem)")
            } else if case .txtValue(let issue) = problem.kind {
                #expect(issue.kind == .fingerprintMalformed, "\(issue)")
            } else {
                Issue.record("a malformed gatewayTlsSha256: \(problem)")
            }
            #expect(throws: ZoneError(.gatewayUnpublishable(problem))) {
                try ZoneWriter.render(zone([gateway], domain: domain), serial: 1)
            }
        }
    }

    @Test("an instance named exactly '@' is written (RFC 3597 PTR) and read back as '@'")
    func atSignLabel() throws {
        let at = try gateway(Array("@".utf8), host: "h", ip: "100.64.0.1")
        let text = try ZoneWriter.render(zone([at]), serial: 1).text
        #expect(text.contains("_openclaw-gw._tcp IN PTR \\# 39 0140"), "\(text)")
        let read = ZoneFile.read(text: text)
        #expect(read.problems.isEmpty, "\(read.problems)")
        let targets = read.records.compactMap { record -> DNSName? in
            if case .ptr(let target) = record.data { return target }
            return nil
        }
        #expect(targets.map { $0.labels.first } == [Array("@".utf8)])
    }

    @Test("a zone zone generate writes always passes zone check, or nothing is written (property)")
    func writtenZonesPass() throws {
        var random = SeededRandom()
        let keys = ["role", "gatewayPort", "gatewayTls", "gatewayTlsSha256", "displayName", "sshPort", "canvasPort", "x"]
        let values = ["gateway", "18789", "1", "0", "yes", String(repeating: "ab", count: 32), "zz", "-1", "99999", "", "é\u{1}"]
        let domains = [domain, try DomainName(validating: (0..<3).map { _ in String(repeating: "d", count: 63) }.joined(separator: "."))]
        var written = 0
        var refused = 0
        for round in 0..<200 {
            let count = Int.random(in: 1...6, using: &random)
            let gateways = try (0..<count).map { index -> ZoneGateway in
                // One Gateway in eight gets hostile values; the others vary within what is valid.
                let hostile = Int.random(in: 0..<8, using: &random) == 0
                let pairs = (0..<Int.random(in: 0...6, using: &random)).compactMap { _ -> (key: String, value: String?)? in
                    let key = keys.randomElement(using: &random)!
                    guard hostile || !["gatewayPort", "gatewayTlsSha256"].contains(key) else { return nil }
                    return (key: key, value: Bool.random(using: &random) ? values.randomElement(using: &random)! : nil)
                }
                let host =
                    Bool.random(using: &random) ? "h\(index % 3)" : String(repeating: "h", count: Int.random(in: 1...63, using: &random))
                return ZoneGateway(
                    instance: try InstanceName(bytes: random.bytes(Int.random(in: 1...63, using: &random))), hostLabel: host,
                    addresses: hostile && Bool.random(using: &random) ? [] : [IPAddress("100.64.\(round % 200).\(index + 1)")!],
                    port: hostile ? [0, 1, 18789, 65_535, 70_000].randomElement(using: &random)! : 18789, txt: try TXTRecord(pairs: pairs))
            }
            let content = ZoneContent(domain: domains.randomElement(using: &random)!, gateways: gateways, nameServerAddresses: ns)
            let text: String
            do { text = try ZoneWriter.render(content, serial: 1).text } catch {
                refused += 1
                continue
            }
            written += 1
            let origin = try DNSName(instance: nil, type: nil, domain: content.domain)
            let failures = ZoneLinter.check(
                ZoneFile.read(text: text, origin: origin), domain: content.domain, today: SerialPolicy.Day(year: 2026, month: 11, day: 22)
            ).filter { $0.severity == .fail }
            #expect(failures.isEmpty, "\(failures.map(\.detail)) in\n\(text)\n\(random.seedNote)")
        }
        #expect(
            written > 10 && refused > 10, "the inputs exercise both outcomes (\(written) written, \(refused) refused) \(random.seedNote)")
    }

    @Test("any label of 1 to 63 bytes (all 256 byte values) is written and read back exactly (property)")
    func anyLabel() throws {
        var random = SeededRandom()
        var names = Set<InstanceName>()
        while names.count < 400 {
            names.insert(try InstanceName(bytes: random.bytes(Int.random(in: 1...63, using: &random))))
        }
        let gateways = try names.enumerated().map { index, name in
            try gateway(name.bytes, host: "h\(index)", ip: "100.64.\(index / 200).\(index % 200 + 1)")
        }
        let rendered = try ZoneWriter.render(zone(gateways), serial: 1)
        let read = ZoneFile.read(text: rendered.text)
        #expect(read.problems.isEmpty, "\(read.problems.prefix(3)) \(random.seedNote)")
        let listed = Set(
            read.records.compactMap { record -> [UInt8]? in
                if case .ptr(let target) = record.data { return target.labels.first }
                return nil
            })
        let owners = Set(read.records.filter { $0.type == .srv }.compactMap(\.name.labels.first))
        #expect(listed == Set(names.map(\.bytes)), "PTR targets differ, \(random.seedNote)")
        #expect(owners == Set(names.map(\.bytes)), "SRV owners differ, \(random.seedNote)")
    }
}

@Suite("zone check: what BIND and Knot refuse")
struct ZoneRefusalTests {
    /// The verdicts named-checkzone 9.18 and kzonecheck 3.2 give (checked against both in the
    /// test bed by ZoneValidatorAgreementTests).
    static let ttls: [(String, Bool)] = [
        ("abc", false), ("99999999999", false), ("4294967296", false), ("1x", false), ("", false), ("60 extra", false),
        ("1h30", false), ("0x10", false), ("1.5", false), ("+5", false), ("1hh", false), ("h", false), ("7102w", false),
        ("60", true), ("1w2d", true), ("60s", true), ("1h30m", true), ("0", true), ("1W", true), ("01", true), ("1h1h", true),
        ("2147483647", true), ("2147483648", true), ("4294967295", true), ("60 ; comment", true),
    ]

    /// The good zone with another `$TTL` line.
    func withTTL(_ value: String) -> String {
        "$ORIGIN openclaw.internal.\n$TTL \(value)\n" + goodZone.split(separator: "\n").dropFirst(2).joined(separator: "\n") + "\n"
    }

    @Test("$TTL values are read as BIND reads them", arguments: ttls)
    func dollarTTL(value: String, accepted: Bool) {
        let findings = lint(withTTL(value))
        let failed = findings.contains { $0.severity == .fail }
        #expect(failed == !accepted, "$TTL \(value): \(findings.filter { $0.severity != .pass }.map(\.detail))")
    }

    @Test("record TTLs too", arguments: ttls.filter { !$0.0.isEmpty && $0.0.first!.isNumber && !$0.0.contains(" ") })
    func recordTTL(value: String, accepted: Bool) {
        let findings = lint(goodZone + "\nextra \(value) IN A 100.64.0.9\n")
        #expect(findings.contains { $0.severity == .fail } == !accepted, "TTL \(value): \(findings.map(\.detail))")
    }

    @Test("a TTL above 2^31-1 is a warning: BIND serves it as 0")
    func servedAsZero() {
        let findings = lint(withTTL("2147483648"))
        #expect(
            findings.contains { $0.code == .syntaxWarning && $0.values.joined().contains("serves it as 0") }, "\(findings.map(\.detail))")
    }

    @Test("a TXT too large for one DNS message fails; a large one that fits passes")
    func hugeTXT() {
        let big = (0..<300).map { "\"k\($0)=" + String(repeating: "x", count: 240) + "\"" }.joined(separator: " ")
        let failing = lint(goodZone + "\nbig IN TXT \(big)\n")
        // ldns would cut this record's text short; the text itself is measured.
        #expect(
            failing.contains { $0.code == .syntax && $0.values.joined().contains("73") && $0.values.joined().contains("RDATA") },
            "\(failing.map(\.detail))")
        // 65,517 bytes: under the record limit, over what one answer can carry (BIND refuses it).
        let near = (0..<266).map { "\"k\($0)=" + String(repeating: "x", count: 240) + "\"" }.joined(separator: " ")
        let tight = lint(goodZone + "\nbig IN TXT \(near) \"\(String(repeating: "y", count: 190))\"\n")
        #expect(tight.contains { $0.code == .syntax }, "\(tight.map(\.detail))")
        let fits = (0..<200).map { "\"k\($0)=" + String(repeating: "x", count: 240) + "\"" }.joined(separator: " ")
        #expect(!lint(goodZone + "\nbig IN TXT \(fits)\n").contains { $0.severity == .fail })
    }

    @Test("a label that starts with \\[ fails (BIND: bad label type); the writer escapes [ as \\091")
    func bitstringLabel() throws {
        let findings = lint(goodZone + "\n\\[x IN A 100.64.0.9\nok\\[x IN A 100.64.0.9\n")
        #expect(findings.filter { $0.code == .syntax && $0.values.joined().contains("bitstring") }.count == 1, "\(findings.map(\.detail))")
        #expect(Presentation.escapeLabel(Array("[x".utf8)) == "\\091x")
    }

    @Test("a zone file that stops being readable ends the reader (no endless loop)")
    func unreadableTail() {
        let zone = ZoneFile.read(bytes: Array(goodZone.utf8) + [0x0A] + [UInt8](repeating: 0, count: 4096))
        #expect(zone.problems.count <= ZoneFile.maxProblems)
    }
}
