import Foundation
import TestSupport
import Testing

/// Issue 30: a server that answered REFUSED was reported twice by `zone check --server`, the
/// first time with "check that the server is running" though it answered. Each of REFUSED,
/// NOTAUTH, NOTIMP and SERVFAIL, from dnsmasq (REFUSED for a domain it does not forward) and
/// from ldns-testns (every question answered with that code), is one finding that names the
/// answer and a fix that fits it; nothing more is asked of that server.
@Suite("zone check: a server that answers with an error is reported once, as what it answered", .testBed)
struct ZoneRefusalTests {
    /// ldns-testns that answers each question zone check asks (SOA, the PTR set, AXFR) with
    /// `rcode` (ldns's name for it).
    func answering(_ rcode: String) async throws -> TestDNSServer {
        let questions = ["openclaw.internal. IN SOA", "_openclaw-gw._tcp.openclaw.internal. IN PTR", "openclaw.internal. IN AXFR"]
        let entries = questions.map {
            "ENTRY_BEGIN\nMATCH opcode qtype qname\nADJUST copy_id\nREPLY QR \(rcode)\nSECTION QUESTION\n\($0)\nENTRY_END\n"
        }
        return try await TestBed.current().startTestns(data: entries.joined(separator: "\n"))
    }

    /// The findings about `server` in `zone check`'s JSON.
    func findings(_ arguments: [String], server: TestDNSServer) async throws -> [[String: Any]] {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(
            ["zone", "check"] + arguments + ["--server", server.endpoint, "--json", "--timeout", "5s"], timeout: .seconds(30))
        #expect(result.status == 1, "\(arguments): \(result.stdout) \(result.stderr)")
        let all = try jsonObject(result.stdout)["findings"] as? [[String: Any]] ?? []
        return all.filter { ($0["message"] as? String)?.contains(server.label) == true }
    }

    @Test(
        "REFUSED, NOTAUTH, NOTIMP, SERVFAIL: one serverRefuses finding, for a file and for --axfr",
        arguments: [("REFUSED", "REFUSED"), ("NOTAUTH", "NOTAUTH"), ("NOTIMPL", "NOTIMP"), ("SERVFAIL", "SERVFAIL")])
    func oneFinding(ldnsName: String, shown: String) async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        let path = "\(directory)/openclaw.internal.db"
        let generated = try await bed.clawnet([
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--gateway", "host=a,ip=100.64.0.1",
            "--out",
            path,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let server = try await answering(ldnsName)
        defer { server.terminate() }
        for arguments in [[path], ["--axfr", "--domain", "openclaw.internal"]] {
            let about = try await findings(arguments, server: server)
            #expect(about.count == 1, "\(shown), \(arguments): \(about)")
            let finding = try #require(about.first)
            #expect(finding["code"] as? String == "serverRefuses", "\(finding)")
            #expect((finding["message"] as? String)?.contains("answered \(shown)") == true, "\(finding)")
            #expect((finding["fix"] as? String)?.contains("is running") == false, "it answered: \(finding)")
        }
    }

    @Test("dnsmasq refusing a domain it does not forward: one finding, and the fix names what REFUSED means")
    func dnsmasqRefuses() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        let path = "\(directory)/openclaw.internal.db"
        _ = try await bed.clawnet([
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--gateway", "host=a,ip=100.64.0.1",
            "--out",
            path,
        ])
        let forwarder = try await bed.startDnsmasq(forwards: ["elsewhere.internal": "127.0.0.1#9"])
        defer { forwarder.terminate() }
        let about = try await findings([path], server: forwarder)
        #expect(about.count == 1, "\(about)")
        #expect((about.first?["fix"] as? String)?.contains("allow-query") == true, "\(about)")
    }
}
