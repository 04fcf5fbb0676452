import DNSSD
import Foundation
import TestSupport
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
        #expect(gathered.removalRefusal(.zoneFile(path: "zone.db")) == nil)
    }

    @Test("a listing source that worked and found Gateways allows removing")
    func worked() throws {
        var gathered = GatheredGateways()
        gathered.add(GatewayYield(gateways: [try gateway("a")]), from: .browse)
        #expect(gathered.removalRefusal(.zoneFile(path: "zone.db")) == nil)
    }

    @Test(
        "a source that failed, wholly or in part, or found nothing, removes nothing; the refusal names the source and the failure",
        arguments: [
            ("no D-Bus", [], [.browse(DiscoveryIssue.noBus)]),
            (
                "one domain of two failed", ["a"],
                [.browse(DiscoveryIssue(source: .unicast, kind: .dnsError, .resolvConf(problem: "127.0.0.1#53 answered REFUSED")))]
            ),
            ("timed out", ["a"], [.browseTimedOut(.seconds(5))]),
            ("empty", [], []),
        ] as [(String, [String], [SourceFailure])])
    func refused(_ label: String, found: [String], failures: [SourceFailure]) throws {
        var gathered = GatheredGateways()
        gathered.add(named: [try gateway("given")])
        gathered.add(GatewayYield(gateways: try found.map(gateway), failures: failures), from: .browse)
        let refusal = try #require(gathered.removalRefusal(.zoneFile(path: "zone.db")), "\(label)")
        let source = GatheredGateways.Listing(source: .browse, found: found.count, failures: failures)
        #expect(refusal == ZoneError(.removalRefused(.zoneFile(path: "zone.db"), sources: [source])), "\(label): \(refusal)")
        #expect(gathered.notes == failures.map { .sourceFailed(.browse, failure: $0) }, "\(label): \(gathered.notes)")
    }

    @Test("an inventory whose browse saved errors is a failed source; its skipped beacons are named")
    func inventoryErrors() throws {
        let document = #"""
            {"schema":"clawnet.browse.v1","beacons":[
              {"instance":"good","host":"h.local.","port":18789,"addresses":["100.64.0.1"],"txt":{"role":"gateway"}},
              {"instance":"local-only","host":"h.local.","port":18789,"addresses":["fe80::1%eth0"],"txt":{"role":"gateway"}}],
             "errors":[{"source":"unicast","kind":"dnsError","message":"127.0.0.1#53 did not answer"}]}
            """#
        let domain = try DomainName(validating: "openclaw.internal")
        let yield = try Inventory.gateways(fromJSON: Data(document.utf8), domain: domain)
        #expect(yield.gateways.map(\.instance.displayName) == ["good"])
        #expect(yield.skipped.map(\.displayName) == ["local-only"])
        #expect(yield.failures == [.saved(source: "unicast", message: "127.0.0.1#53 did not answer")], "\(yield.failures)")
        var gathered = GatheredGateways()
        gathered.add(yield, from: .inventory(path: "fleet.json"))
        let source = GatheredGateways.Listing(source: .inventory(path: "fleet.json"), found: 1, failures: yield.failures)
        #expect(gathered.removalRefusal(.prune(zone: domain)) == ZoneError(.removalRefused(.prune(zone: domain), sources: [source])))
        #expect(gathered.skipped.map(\.displayName) == ["local-only"])
    }
}
