import DNSSD
import DNSUpdate
import DNSWire
import Testing

@testable import Output
@testable import Zones

/// The words of the findings about servers (FindingText+Servers), one case per detail.
@Suite("zone check findings: the words of each server detail")
struct FindingTextServersTests {
    static let zone = FindingTextTests.zone
    static let service = FindingTextTests.service
    static let instance = FindingTextTests.instance
    static let server = FindingTextTests.server
    static let s = "10.0.0.53#53"
    static let missing = LiveZoneComparison.Difference(service: service, inFile: true, count: 2, first: "a.\(service)")
    static let extra = LiveZoneComparison.Difference(service: service, inFile: false, count: 1, first: "b.\(service)")

    static let comparison: [(Finding.Detail, String, String?)] = [
        (
            .serverNotAsked(server, zone: zone, failure: "no answer from 10.0.0.53#53 (2 tries)", fix: "is it running?"),
            "\(s) cannot be asked about openclaw.internal.: no answer from 10.0.0.53#53 (2 tries)", "is it running?"
        ),
        (
            .zoneNotServed(server, zone: zone, explanation: "answered NXDOMAIN"),
            "\(s) does not serve openclaw.internal.: SOA answered NXDOMAIN",
            "check that the server is running, listens there, and loaded the zone (its log says why not)"
        ),
        (
            .serverBehindFile(server, served: 1, file: 2, zone: zone),
            "\(s) serves serial 1, the file has 2: the server has not loaded this file",
            "CoreDNS's file plugin reloads within its `reload` interval once the serial changes; BIND needs `rndc reload "
                + "openclaw.internal.`; otherwise the server's log says why the file did not load"
        ),
        (
            .serverAheadOfFile(server, served: 3, file: 2),
            "\(s) serves serial 3, newer than the file's 2: is it serving another file?", nil
        ),
        (
            .contentWithoutSerialBump(server, serial: 2, [missing, extra]),
            "\(s) serves serial 2 like the file, but other content: 2 instances of \(service) in the file are not served (e.g. "
                + "a.\(service)); 1 served instance of \(service) is not in the file (e.g. b.\(service)). The file changed without a "
                + "serial bump, so the server keeps the old zone",
            "bump the SOA serial (`clawnet zone generate --out` does it) and let the server reload"
        ),
        (
            .contentDiffers(server, [extra]), "\(s): 1 served instance of \(service) is not in the file (e.g. b.\(service))", nil
        ),
        (.serverMatchesFile(server, serial: 2, instances: 1), "\(s) serves serial 2 and the same 1 instance as the file", nil),
        (
            .servicesNotCompared(services: 120, compared: 100, server),
            "the file has 120 service types; the first 100 were compared with \(s)", nil
        ),
    ]

    static let served: [(Finding.Detail, String, String?)] = [
        (
            .serverUnreadable(UpdateFailure(.transport, "no answer from 10.0.0.53#53", fix: "is it running?")),
            "no answer from 10.0.0.53#53", "is it running?"
        ),
        (
            .serverRefuses(.refused, server, zone: zone, question: .soa),
            "\(s) answered REFUSED to SOA openclaw.internal.: it runs, but refuses openclaw.internal. to this machine: it does not "
                + "serve the zone (not authoritative for it, no recursion for this client), or an ACL refuses this address",
            "give --server the zone's own server, or make this one serve it (BIND: a `zone` block with the file and `allow-query` for "
                + "this address; CoreDNS: a server block for the zone); a resolver answers only with recursion allowed for this client"
        ),
        (
            .serverRefuses(.notAuth, server, zone: zone, question: .aboutZone),
            "\(s) answered NOTAUTH to a question about openclaw.internal.: it is not authoritative for openclaw.internal.",
            "give --server the zone's primary, or a secondary that has loaded it"
        ),
        (
            .serverRefuses(.notImp, server, zone: zone, question: .soa),
            "\(s) answered NOTIMP to SOA openclaw.internal.: it does not implement this question: not a DNS server that serves "
                + "openclaw.internal.",
            "give --server a DNS server that serves openclaw.internal. (BIND, Knot, NSD, CoreDNS)"
        ),
        (
            .serverRefuses(.servFail, server, zone: zone, question: .soa),
            "\(s) answered SERVFAIL to SOA openclaw.internal.: it runs, but failed to answer for openclaw.internal.: the zone did not "
                + "load, or the server it forwards to is unreachable",
            "its log says why; a zone file that does not load: `clawnet zone check FILE` and the server's own check (named-checkzone)"
        ),
        (
            .transferRefused(server, zone: zone, answer: "NOTAUTH (BADKEY)"),
            "\(s) refuses zone transfers of openclaw.internal. (it answered NOTAUTH (BADKEY): a Knot acl without `transfer`): the "
                + "zone as served cannot be linted (its Gateways' RRsets were read by queries)",
            "allow AXFR for the key: BIND `allow-transfer { key NAME; };`, Knot an acl with `action: transfer`, PowerDNS "
                + "`pdnsutil set-meta ZONE TSIG-ALLOW-AXFR NAME`"
        ),
        (
            .transferRefused(server, zone: zone, answer: nil),
            "\(s) refuses zone transfers of openclaw.internal.: the zone as served cannot be linted (its Gateways' RRsets were read "
                + "by queries)",
            "allow AXFR for the key: BIND `allow-transfer { key NAME; };`, Knot an acl with `action: transfer`, PowerDNS "
                + "`pdnsutil set-meta ZONE TSIG-ALLOW-AXFR NAME`"
        ),
        (
            .transferPastBound("the zone has more than 1000000 records"),
            "the zone has more than 1000000 records: the zone as served cannot be linted (its Gateways' RRsets were checked instead)",
            "lint the zone's file (`clawnet zone check FILE`), or split the records across several zones"
        ),
        (
            .served(.srvPortZero(instance: instance), server: server, record: 9),
            "served by \(s): 'Studio (OpenClaw)' has SRV port 0: it says it is not available (record 9 of the transfer)",
            "use the gateway port (18789)"
        ),
        (
            .served(.serialNotDated(42), server: server, record: 1),
            "served by \(s): serial 42 is not in OpenClaw's YYYYMMDDnn form, as UPDATEs count it up (record 1 of the transfer)", nil
        ),
        (
            .eightBitNamesRefused(server, instance: instance),
            "\(s) holds 'Studio (OpenClaw)' but answers SERVFAIL to the SRV question for it: \(PowerDNSNames.cause); nodes cannot "
                + "browse such instances", PowerDNSNames.fix
        ),
        (
            .timeoutAfterRead(zone: zone, servers: [server, DNSServer(address: IPAddress("10.0.0.54")!)], skipped: .comparison),
            "--timeout ran out once openclaw.internal. was read from \(s), 10.0.0.54#53: the servers were not compared",
            "give a longer --timeout"
        ),
        (
            .timeoutAfterRead(zone: zone, servers: [server], skipped: .lint),
            "--timeout ran out once openclaw.internal. was read from \(s): the zone as served was not checked", "give a longer --timeout"
        ),
        (
            .timeoutAfterRead(zone: zone, servers: [server], skipped: .probes),
            "--timeout ran out once openclaw.internal. was read from \(s): its Gateways' addresses were not tried",
            "give a longer --timeout"
        ),
    ]

    static let agreement: [(Finding.Detail, String, String?)] = [
        (
            .serverLags("b#53", zone: zone, serial: nil, leaders: ["a#53"], newest: 5),
            "b#53 serves openclaw.internal. with no SOA, a#53 with 5: b#53 lags behind",
            "on the primary: `notify yes;` and `allow-transfer` for b#53 (Knot: `notify:` and an acl with `action: transfer`); on b#53: "
                + "the zone is `type secondary` with the primary in `primaries`; its log says why the transfer failed"
        ),
        (
            .serversDiffer("b#53", reference: "a#53", serial: 5, zone: zone, records: 2, missing: "x A 10.0.0.1", extra: "y A 10.0.0.2"),
            "b#53 and a#53 both serve serial 5 of openclaw.internal. but differ in 2 records (b#53: extra y A 10.0.0.2)",
            "the zone changed without a serial bump somewhere: bump the serial on the primary (dynamic updates do it) and let the "
                + "secondaries transfer again"
        ),
        (
            .serversAgree(["a#53", "b#53"], zone: zone, serial: 5, records: 9),
            "a#53, b#53 serve openclaw.internal. with serial 5 and the same 9 records", nil
        ),
        (
            .probesCapped(server, limit: 2000, service: service),
            "\(s) serves more than 2000 instances of \(service); the first 2000 were tried", nil
        ),
        (
            .gatewayRefused("Studio", host: "studio.openclaw.internal.", port: 18789, tried: ["10.0.0.1:18789", "[fd00::1]:18789"]),
            "'Studio' is served at studio.openclaw.internal.:18789, but nothing accepts TCP there (10.0.0.1:18789, [fd00::1]:18789: "
                + "connection refused): a record left behind by a Gateway that is not running (a crashed `clawnet advertise --domain`?)",
            "start the Gateway, or remove its record: `clawnet zone push --prune` with the Gateways that remain"
        ),
        (
            .gatewayUnreachable("Studio", tried: ["10.0.0.1:18789"]),
            "'Studio' at 10.0.0.1:18789 does not answer TCP from here (no answer or no route): a firewall, or this machine is not on "
                + "the Gateway's network", nil
        ),
        (.gatewaysReachable(1), "1 served Gateway accepts TCP on the SRV port", nil),
        (.gatewaysReachable(3), "3 served Gateways accept TCP on the SRV port", nil),
    ]

    @Test("the file against a server, the zone as served, servers against each other", arguments: comparison + served + agreement)
    func servers(_ detail: Finding.Detail, message: String, fix: String?) {
        let words = FindingText.words(detail)
        #expect(words.message == message, "\(detail.code)")
        #expect(words.fix == fix, "\(detail.code)")
    }

    @Test("every code has a case above, and words of its own (not the code, as the fallback says it)")
    func everyCode() {
        let all =
            FindingTextTests.zoneText + FindingTextTests.instances + FindingTextTests.sizes + Self.comparison + Self.served
            + Self.agreement
        let covered = Set(all.map { $0.0.code })
        #expect(covered == Set(FindingCode.allCases), "no words tested for \(Set(FindingCode.allCases).subtracting(covered))")
        let fallback = all.filter { FindingText.words($0.0).message == $0.0.code.rawValue }
        #expect(fallback.isEmpty, "worded by the fallback: \(fallback.map { $0.0.code })")
    }
}
