import Foundation
import Host
import TestSupport
import Testing

/// The classes a fourth outside attack found open in `clawnet report` (issue 30), each by its
/// reproducer: a stranger on the LAN testing guesses through [REDACTED], a file appearing at
/// --out while the report runs, a domain name longer than ustar's names; and the report aimed as
/// doctor is, its text files in words.
@Suite("clawnet report: attacks and aim", .testBed)
struct ReportAttackTests {
    @Test("a beacon from the LAN whose TXT equals the config's token comes back as sent, never as [REDACTED]; no count of hits")
    func beaconCannotTestAGuess() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let token = "ZqGuessToken\(tag)Sx7"
        let name = "Guess \(tag)"
        let publisher = try await bed.avahiPublish(name: name, txt: ["role=gateway", "gatewayPort=18789", "note=\(token)"])
        defer { publisher.terminate() }
        // Browse waits for the whole --timeout or until every path has reported: time enough on a loaded machine.
        let config = #"{ gateway: { auth: { token: "\#(token)" } } }"#
        let root = try await ReportCommandTests.unpackedReport(bed, config: config, timeout: "8s")
        let browse = try String(contentsOfFile: "\(root)/browse.json", encoding: .utf8)
        #expect(browse.contains(name), "the beacon was browsed: \(browse)")
        #expect(browse.contains("note=\(token)") || browse.contains(#""note" : "\#(token)""#), "its TXT as received: \(browse)")
        for file in ["browse.json", "doctor.json", "doctor.txt"] {
            let text = try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8)
            #expect(!text.contains("[REDACTED]"), "nothing from the network is replaced in \(file)")
        }
        let manifest = try String(contentsOfFile: "\(root)/manifest.json", encoding: .utf8)
        #expect(!manifest.contains("scrubbed"), "the manifest counts no hits: \(manifest)")
        #expect(manifest.contains(#""origin" : "network""#), "it says which files were not searched: \(manifest)")
    }

    @Test("a file created at --out while the report runs is not replaced, and the report says so (exit 1)")
    func outAppearsMeanwhile() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let home = "\(bed.directory)/report-home-\(tag)"
        let archive = "\(bed.directory)/report-race-\(tag).tar.gz"
        // The openclaw CLI the report runs (found in ~/.npm-global) makes the file first.
        try ReportOpenClawTests.install(
            in: "\(home)/.npm-global/bin", script: "printf 'planted by someone else\\n' > '\(archive)'\necho 2026.9.4\n")
        let result = try await bed.clawnet(["report", "--out", archive, "--timeout", "2s", "--no-local"], environment: ["HOME": home])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("appeared while the report ran") && result.stderr.contains("not written"), "\(result.stderr)")
        #expect(try String(contentsOfFile: archive, encoding: .utf8) == "planted by someone else\n", "the file is left as it is")
    }

    @Test("a wide-area domain of 119 bytes: its zone file is in the archive under its whole name")
    func longDomainName() async throws {
        let bed = try TestBed.current()
        let domain = String(repeating: "a", count: 60) + "." + String(repeating: "b", count: 49) + ".internal"
        let zone = openClawZone(["gw IN A \(bed.ip(.gw))", #"_openclaw-gw._tcp IN PTR Long._openclaw-gw._tcp"#], domain: domain)
        let dns = try await bed.startBIND(zones: [domain: zone], zoneOptions: "allow-transfer { any; };")
        defer { dns.terminate() }
        let root = try await ReportCommandTests.unpackedReport(
            bed, config: "{}", server: dns.endpoint, arguments: ["--domain", domain, "--no-local"])
        let name = "zone-\(domain).txt"
        #expect(name.utf8.count + 15 > 100, "longer than a ustar name")
        let served = try String(contentsOfFile: "\(root)/\(name)", encoding: .utf8)
        #expect(served.contains("Long._openclaw-gw._tcp.\(domain)."), "\(served)")
    }

    @Test("aimed as doctor is: a TARGET and --domain reach doctor and browse; doctor's table, routes and Avahi's state in words")
    func aimed() async throws {
        let bed = try TestBed.current()
        let root = try await ReportCommandTests.unpackedReport(
            bed, config: "{}", arguments: ["127.0.0.1:9", "--domain", "aimed.internal", "--no-local"])
        let doctor = try jsonObject(String(contentsOfFile: "\(root)/doctor.json", encoding: .utf8))
        let targets = (doctor["gateways"] as? [[String: Any]])?.compactMap { $0["target"] as? String } ?? []
        #expect(targets == ["127.0.0.1:9"], "\(targets)")
        let table = try String(contentsOfFile: "\(root)/doctor.txt", encoding: .utf8)
        #expect(table.contains("Gateway 127.0.0.1:9") && table.contains("gw.tcp") && table.contains("doctor: "), "\(table)")
        let browse = try String(contentsOfFile: "\(root)/browse.json", encoding: .utf8)
        #expect(browse.contains("aimed.internal"), "browse asked the domain given: \(browse)")
        let routes = try String(contentsOfFile: "\(root)/routes.txt", encoding: .utf8)
        #expect(routes.contains("# ip -4 route show table all") && routes.contains(" dev "), "\(routes)")
        #expect(!routes.contains("Destination\tGateway"), "not the kernel's hex table: \(routes)")
        let avahi = try String(contentsOfFile: "\(root)/avahi.txt", encoding: .utf8)
        #expect(avahi.hasPrefix("avahi-daemon is running: ") || avahi.hasPrefix("avahi-daemon is not available: "), "\(avahi)")
        #expect(!avahi.contains("running(version:") && !avahi.contains("unavailable("), "no Swift debug text: \(avahi)")
    }

    @Test("--server without a wide-area domain is a usage error, as in browse and doctor")
    func serverNeedsDomain() async throws {
        let bed = try TestBed.current()
        let archive = "\(bed.directory)/report-usage-\(uniqueTag()).tar.gz"
        let result = try await bed.clawnet(
            ["report", "--out", archive, "--server", "127.0.0.1:53"], environment: ["HOME": "\(bed.directory)/no-home-\(uniqueTag())"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--server needs a wide-area domain"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: archive))
    }
}
