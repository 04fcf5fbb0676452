import DNSSD
import DNSWire
import Foundation
import Testing

@testable import Zones

/// A good zone, and faults planted one at a time; zone check must find each.
let goodZone = """
    $ORIGIN openclaw.internal.
    $TTL 60
    @ IN SOA ns1 hostmaster 2026112201 7200 3600 1209600 60
    @ IN NS ns1
    ns1 IN A 100.101.102.103
    studio IN A 100.101.102.103
    _openclaw-gw._tcp IN PTR studio-gateway._openclaw-gw._tcp
    studio-gateway._openclaw-gw._tcp IN SRV 0 0 18789 studio
    studio-gateway._openclaw-gw._tcp IN TXT "displayName=Studio" "role=gateway" "transport=gateway" "gatewayPort=18789"
    """

func lint(_ text: String, domain: String? = nil) -> [Finding] {
    ZoneLinter.check(
        ZoneFile.read(text: text), domain: domain.flatMap { try? DomainName(validating: $0) },
        today: SerialPolicy.Day(year: 2026, month: 11, day: 22))
}

@Suite("zone check: planted faults")
struct ZoneLinterTests {
    @Test("a good zone passes")
    func good() {
        let findings = lint(goodZone)
        #expect(!findings.contains { $0.severity != .pass }, "\(findings)")
        #expect(Set(findings.map(\.code)) == [.serialDated, .instancesComplete], "\(findings)")
        #expect(findings.contains { $0.code == .instancesComplete && $0.values == ["1", "_openclaw-gw._tcp.openclaw.internal."] })
    }

    @Test("OpenClaw's TXT rules hold for its own types only: an _http._tcp instance beside the Gateways gets no role or port finding")
    func otherServiceTypes() {
        let zone =
            goodZone + """

                _http._tcp IN PTR web._http._tcp
                web._http._tcp IN SRV 0 0 8080 studio
                web._http._tcp IN TXT "path=/" "gatewayPort=notaport"
                _moltbot-gw._tcp IN PTR old._moltbot-gw._tcp
                old._moltbot-gw._tcp IN SRV 0 0 18789 studio
                old._moltbot-gw._tcp IN TXT "displayName=Old"
                """
        let findings = lint(zone)
        let txtCodes: Set<FindingCode> = [.txtRoleMissing, .txtNotAPort, .txtPortMismatch]
        #expect(!findings.contains { txtCodes.contains($0.code) && $0.values.contains("web._http._tcp.openclaw.internal.") }, "\(findings)")
        #expect(findings.contains { $0.code == .instancesComplete && $0.values.contains("_http._tcp.openclaw.internal.") }, "\(findings)")
        #expect(
            findings.contains { $0.code == .txtRoleMissing && $0.values.contains("old._moltbot-gw._tcp.openclaw.internal.") },
            "a legacy OpenClaw type keeps the rules: \(findings)")
    }

    @Test(
        "each planted fault is found, at its line, with the right severity",
        arguments: [
            // (what to replace, replacement, severity, expected code, line)
            ("studio-gateway._openclaw-gw._tcp IN SRV 0 0 18789 studio\n", "", Finding.Severity.fail, .srvMissing, 7),
            (
                "studio-gateway._openclaw-gw._tcp IN TXT \"displayName=Studio\" \"role=gateway\" \"transport=gateway\" \"gatewayPort=18789\"",
                "", .fail, .txtMissing, 7
            ),
            (
                "studio IN A 100.101.102.103\n", "", .fail,
                .srvTargetWithoutAddress, 7
            ),
            ("18789 studio\n", "18789 studio.example.com.\n", .warn, .srvTargetOutside, 8),
            ("\"gatewayPort=18789\"", "\"gatewayPort=18790\"", .fail, .txtPortMismatch, 9),
            (
                "\"gatewayPort=18789\"", "\"gatewayPort=18789\" \"gatewayTls=1\" \"gatewayTlsSha256=zz\"", .fail,
                .txtFingerprintMalformed, 9
            ),
            ("\"role=gateway\"", "\"role=node\"", .warn, .txtRoleNotGateway, 9),
            ("@ IN NS ns1\n", "", .fail, .nsMissing, nil),
            ("ns1 IN A 100.101.102.103\n", "", .fail, .nsWithoutAddress, 4),
            ("2026112201", "42", .warn, .serialNotDated, 3),
            ("2026112201", "2031010101", .warn, .serialInFuture, 3),
            ("$TTL 60\n", "$TTL 60\nbroken IN A not-an-address\n", .fail, .syntax, 3),
            ("_openclaw-gw._tcp IN PTR studio", "_openclaw-gw._tcp 0 IN PTR studio", .warn, .ttlZero, 7),
            (
                "studio-gateway._openclaw-gw._tcp IN TXT",
                "_openclaw-gw._tcp IN PTR _openclaw-gw._tcp\nstudio-gateway._openclaw-gw._tcp IN TXT", .fail, .ptrNotInstance, 9
            ),
            (
                "_openclaw-gw._tcp IN PTR studio-gateway._openclaw-gw._tcp\n",
                "_openclaw-gw._tcp IN PTR studio-gateway._openclaw-gw._tcp\n_openclaw-gw._tcp IN PTR Studio-Gateway._openclaw-gw._tcp\n",
                .warn, .instanceListedTwice, 8
            ),
            ("_openclaw-gw._tcp IN PTR studio-gateway._openclaw-gw._tcp\n", "", .warn, .instanceUnlisted, 7),
            ("studio IN A 100.101.102.103\n", "studio IN CNAME other\nother IN A 10.0.0.1\n", .fail, .srvTargetCNAME, 9),
            ("18789 studio\n", "0 studio\n", .warn, .srvPortZero, 8),
        ] as [(String, String, Finding.Severity, FindingCode, Int?)])
    func plantedFaults(target: String, replacement: String, severity: Finding.Severity, code: FindingCode, line: Int?) {
        let broken = goodZone.replacingOccurrences(of: target, with: replacement)
        #expect(broken != goodZone, "the fault must be planted")
        let findings = lint(broken)
        let found = findings.first { $0.code == code }
        #expect(found != nil, "expected \(code) in \(findings.map(\.detail))")
        #expect(found?.severity == severity)
        if let line { #expect(found?.line == line, "\(found.map { "\($0.detail)" } ?? "")") }
    }

    @Test("two SOA records, no SOA, records outside the zone")
    func apexFaults() {
        #expect(lint(goodZone + "\n@ IN SOA ns1 hostmaster 2 7200 3600 1209600 60\n").contains { $0.code == .soaDuplicate })
        let noSOA = goodZone.replacingOccurrences(of: "@ IN SOA ns1 hostmaster 2026112201 7200 3600 1209600 60\n", with: "")
        #expect(lint(noSOA).contains { $0.code == .noApex && $0.severity == .fail })
        #expect(lint(noSOA, domain: "openclaw.internal").contains { $0.code == .soaMissing && $0.values == ["0", "openclaw.internal."] })
        #expect(lint(goodZone + "\nelsewhere.example. IN A 10.0.0.1\n").contains { $0.code == .outsideZone && $0.severity == .fail })
    }

    @Test(
        "a --domain none of the file's records is in: one failure naming the file's zone, the rest folded under it",
        arguments: ["wrong.internal", "openclaw.example", "internal.openclaw"])
    func wrongDomain(_ domain: String) throws {
        let findings = lint(goodZone, domain: domain)
        let failures = findings.filter { $0.severity == .fail }
        #expect(failures.map(\.code) == [.domainMismatch], "\(findings.map(\.detail))")
        let finding = try #require(failures.first)
        guard case .domainMismatch(let requested, let name, let soa, let records) = finding.detail else { return }
        #expect(requested.withoutTrailingDot == domain && name.description == "\(domain).", "\(finding.detail)")
        #expect(soa.description == "openclaw.internal." && records == 7, "\(finding.detail)")
        #expect(findings.count == 1, "nothing else: \(findings.map(\.code))")
    }

    @Test("a --domain the file's records are in (its own, or a parent) is checked as usual: no domainMismatch")
    func domainThatMatches() {
        for domain in ["openclaw.internal", "internal"] {
            #expect(!lint(goodZone, domain: domain).contains { $0.code == .domainMismatch }, "\(domain)")
        }
    }

    @Test("over 100 instances: BIND's limit named with the setting to change")
    func bindLimit() {
        var text = goodZone + "\n"
        for index in 0..<120 {
            text +=
                "_openclaw-gw._tcp IN PTR g\(index)._openclaw-gw._tcp\ng\(index)._openclaw-gw._tcp IN SRV 0 0 18789 studio\ng\(index)._openclaw-gw._tcp IN TXT \"role=gateway\"\n"
        }
        let finding = lint(text).first { $0.code == .bindRecordsPerType }
        #expect(finding?.severity == .warn)
        #expect(finding?.values == ["121", "_openclaw-gw._tcp.openclaw.internal."], "\(finding.map(\.values) ?? [])")
    }

    @Test("failures come first, then warnings, then passes")
    func ordering() {
        let findings = lint(
            goodZone.replacingOccurrences(of: "2026112201", with: "42").replacingOccurrences(
                of: "\"gatewayPort=18789\"", with: "\"gatewayPort=1\""))
        let severities = findings.map(\.severity)
        #expect(severities == severities.sorted(by: >))
    }
}
