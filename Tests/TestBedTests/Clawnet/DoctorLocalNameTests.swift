import Foundation
import TestSupport
import Testing

/// A `.local` TARGET as a node finds it: avahi-daemon in the node's namespace publishes and
/// resolves the test bed's hosts by mDNS, while nsswitch's nss-mdns (if installed) cannot
/// reach that daemon (it asks /run/avahi-daemon/socket, where none runs): getaddrinfo fails,
/// avahi-daemon answers.
@Suite("doctor resolves a .local TARGET through avahi-daemon when nsswitch cannot", .testBed)
struct DoctorLocalNameTests {
    /// The first Gateway's gw.dns check in doctor's JSON, and the whole output for messages.
    func dnsCheck(_ target: String) async throws -> (check: [String: Any], status: Int32, output: String) {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(
            ["doctor", "--json", "--no-local", "--timeout", "6s", "--check", "gw.dns", target], on: .node, timeout: .seconds(30))
        let document = try jsonObject(result.stdout)
        let gateway = try #require((document["gateways"] as? [[String: Any]])?.first, "\(result.stdout)\n\(result.stderr)")
        let check = try #require((gateway["checks"] as? [[String: Any]])?.first { $0["id"] as? String == "gw.dns" }, "\(gateway)")
        return (check, result.status, result.stdout)
    }

    @Test("gw.local, which only avahi-daemon resolves here: gw.dns has its addresses, warns that nsswitch did not, and names nss-mdns")
    func resolvedByAvahi() async throws {
        let bed = try TestBed.current()
        let getent = try await bed.run(on: .node, ["getent", "hosts", "gw.local"], timeout: .seconds(20))
        let (check, status, output) = try await dnsCheck("gw.local:18789")
        let message = check["message"] as? String ?? ""
        #expect(
            check["status"] as? String == "warn" && message.contains(bed.ip(.gw)) && message.contains("by asking avahi-daemon"),
            "getent exit \(getent.status) \(getent.stdout): \(check)")
        #expect((check["fix"] as? String)?.contains("nss-mdns") == true, "\(check)")
        #expect(status == 0, "a warning, not a failure: \(output)")
    }

    @Test(
        "a .local name no host answers: gw.dns fails saying mDNS got no answer (never NXDOMAIN), and the fix names browse's instance names")
    func unanswered() async throws {
        let name = "nobody-\(uniqueTag()).local"
        let (check, status, output) = try await dnsCheck("\(name):18789")
        let message = check["message"] as? String ?? ""
        #expect(check["status"] as? String == "fail" && status == 1, "\(output)")
        #expect(message.contains("avahi-daemon") && !message.contains("NXDOMAIN"), "\(message)")
        #expect((check["fix"] as? String)?.contains("clawnet browse") == true, "\(check)")
    }
}
