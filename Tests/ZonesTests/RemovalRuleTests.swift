import DNSSD
import Foundation
import Testing

@testable import Zones

/// Issue 18: a failed or empty source is no reason to remove Gateways. One rule
/// (`GatheredGateways.removalRefusal`) that zone generate --out and zone push --prune follow.
@Suite("Removing Gateways only on the word of sources that worked")
struct RemovalRuleTests {
    func gateway(_ name: String) throws -> ZoneGateway {
        ZoneGateway(
            instance: try InstanceName(decoded: name), hostLabel: "h", addresses: [IPAddress("100.64.0.1")!], port: 18789,
            txt: try TXTRecord(pairs: [("role", "gateway")]))
    }

    @Test("Gateways named one by one (--gateway, --this-host) remove as they always did")
    func namedOnly() throws {
        var gathered = GatheredGateways()
        gathered.add(named: [try gateway("a")])
        #expect(gathered.removalRefusal(kept: "zone.db", instead: "") == nil)
    }

    @Test("a listing source that worked and found Gateways allows removing")
    func worked() throws {
        var gathered = GatheredGateways()
        gathered.add(GatewayYield(gateways: [try gateway("a")]), from: "--from-browse")
        #expect(gathered.removalRefusal(kept: "zone.db", instead: "") == nil)
    }

    @Test(
        "a source that failed, wholly or in part, or found nothing, removes nothing; the message names the source and the failure",
        arguments: [
            ("no D-Bus", [], ["browse: no D-Bus system bus"]),
            ("one domain of two failed", ["a"], ["browse: 127.0.0.1#53 answered REFUSED for openclaw.internal."]),
            ("timed out", ["a"], ["browse: stopped at the 5s timeout before every path reported all it knows"]),
            ("empty", [], []),
        ] as [(String, [String], [String])])
    func refused(_ label: String, found: [String], failures: [String]) throws {
        var gathered = GatheredGateways()
        gathered.add(named: [try gateway("given")])
        gathered.add(GatewayYield(gateways: try found.map(gateway), failures: failures), from: "--from-browse")
        let refusal = try #require(gathered.removalRefusal(kept: "zone.db", instead: "print it"), "\(label)")
        #expect(refusal.message.contains("--from-browse"), "\(label): \(refusal.message)")
        #expect(refusal.message.contains("zone.db is left as it is"), "\(label): \(refusal.message)")
        for failure in failures { #expect(refusal.message.contains(failure), "\(label): \(refusal.message)") }
        if failures.isEmpty { #expect(refusal.message.contains("gave no Gateway"), "\(refusal.message)") }
    }

    @Test("an inventory whose browse saved errors is a failed source; its skipped beacons are named")
    func inventoryErrors() throws {
        let document = #"""
            {"schema":"clawnet.browse.v1","beacons":[
              {"instance":"good","host":"h.local.","port":18789,"addresses":["100.64.0.1"],"txt":{"role":"gateway"}},
              {"instance":"local-only","host":"h.local.","port":18789,"addresses":["fe80::1%eth0"],"txt":{"role":"gateway"}}],
             "errors":[{"source":"unicast","kind":"dnsError","message":"127.0.0.1#53 did not answer"}]}
            """#
        let yield = try Inventory.gateways(fromJSON: Data(document.utf8), domain: try DomainName(validating: "openclaw.internal"))
        #expect(yield.gateways.map(\.instance.displayName) == ["good"])
        #expect(yield.skipped.map(\.displayName) == ["local-only"])
        #expect(yield.failures == ["the browse that wrote it reported unicast: 127.0.0.1#53 did not answer"], "\(yield.failures)")
        var gathered = GatheredGateways()
        gathered.add(yield, from: "--inventory fleet.json")
        #expect(gathered.removalRefusal(kept: "zone.db", instead: "")?.message.contains("--inventory fleet.json failed") == true)
        #expect(gathered.skipped.map(\.displayName) == ["local-only"])
    }
}
