import DNSSD
import DNSUpdate
import DNSWire
import Zones

/// The words of the findings about servers: the file against a server (LiveZoneComparison),
/// the zone as served (ServedZoneChecks) and servers against each other (ServerAgreement).
extension FindingText {
    static func servers(_ detail: Finding.Detail) -> FindingText? {
        comparison(detail) ?? served(detail) ?? agreement(detail)
    }

    /// The file against what one server serves.
    private static func comparison(_ detail: Finding.Detail) -> FindingText? {
        switch detail {
        case .serverNotAsked(let server, let zone, let failure, let fix):
            FindingText("\(server) cannot be asked about \(zone): \(failure)", fix: fix)
        case .zoneNotServed(let server, let zone, let explanation):
            FindingText(
                "\(server) does not serve \(zone): SOA \(explanation)",
                fix: "check that the server is running, listens there, and loaded the zone (its log says why not)")
        case .serverBehindFile(let server, let served, let file, let zone):
            FindingText(
                "\(server) serves serial \(served), the file has \(file): the server has not loaded this file",
                fix: "CoreDNS's file plugin reloads within its `reload` interval once the serial changes; BIND needs `rndc reload "
                    + "\(ShellWord.quoted(zone.description))`; otherwise the server's log says why the file did not load")
        case .serverAheadOfFile(let server, let served, let file):
            FindingText("\(server) serves serial \(served), newer than the file's \(file): is it serving another file?")
        case .contentWithoutSerialBump(let server, let serial, let differences):
            FindingText(
                "\(server) serves serial \(serial) like the file, but other content: \(text(differences)). The file changed without a "
                    + "serial bump, so the server keeps the old zone",
                fix: "bump the SOA serial (`clawnet zone generate --out` does it) and let the server reload")
        case .contentDiffers(let server, let differences):
            FindingText("\(server): \(text(differences))")
        case .serverMatchesFile(let server, let serial, let instances):
            FindingText("\(server) serves serial \(serial) and the same \(Plural.counted(instances, "instance")) as the file")
        case .servicesNotCompared(let services, let compared, let server):
            FindingText("the file has \(services) service types; the first \(compared) were compared with \(server)")
        default: nil
        }
    }

    private static func text(_ differences: [LiveZoneComparison.Difference]) -> String {
        differences.map { difference in
            let are = difference.count == 1 ? "is" : "are"
            return difference.inFile
                ? "\(Plural.counted(difference.count, "instance")) of \(difference.service) in the file \(are) not served "
                    + "(e.g. \(difference.first))"
                : "\(Plural.counted(difference.count, "served instance")) of \(difference.service) \(are) not in the file "
                    + "(e.g. \(difference.first))"
        }.joined(separator: "; ")
    }

    /// Reading the zone as each server serves it, and what was found in it.
    private static func served(_ detail: Finding.Detail) -> FindingText? {
        switch detail {
        case .serverUnreadable(let failure):
            FindingText(failure.message, fix: failure.fix)
        case .serverRefuses(let rcode, let server, let zone, let question):
            refusal(rcode, server: server, zone: zone, question: question)
        case .transferRefused(let server, let zone, let answer):
            FindingText(
                "\(server) refuses zone transfers of \(zone)\(answer.map(refusedAnswer) ?? ""): the zone as served cannot be linted "
                    + "(its Gateways' RRsets were read by queries)",
                fix: "allow AXFR for the key: BIND `allow-transfer { key NAME; };`, Knot an acl with `action: transfer`, PowerDNS "
                    + "`pdnsutil set-meta ZONE TSIG-ALLOW-AXFR NAME`")
        case .transferPastBound(let why):
            FindingText(
                "\(why): the zone as served cannot be linted (its Gateways' RRsets were checked instead)",
                fix: "lint the zone's file (`clawnet zone check FILE`), or split the records across several zones")
        case .served(let inner, let server, let record):
            servedFinding(words(inner), code: inner.code, server: server, record: record)
        case .eightBitNamesRefused(let server, let instance):
            FindingText(
                "\(server) holds '\(display(instance))' but answers SERVFAIL to the SRV question for it: \(PowerDNSNames.cause); nodes "
                    + "cannot browse such instances",
                fix: PowerDNSNames.fix)
        case .timeoutAfterRead(let zone, let servers, let skipped):
            FindingText(
                "--timeout ran out once \(zone) was read from \(servers.map(\.description).joined(separator: ", ")): \(text(skipped))",
                fix: "give a longer --timeout")
        default: nil
        }
    }

    /// A server that answered REFUSED, NOTAUTH, NOTIMP or SERVFAIL: why, and the fix that answer calls for.
    private static func refusal(_ rcode: RCode, server: DNSServer, zone: DNSName, question: RefusingServer.Question) -> FindingText {
        let asked = question == .soa ? "SOA \(zone)" : "a question about \(zone)"
        let answered = "\(server) answered \(rcode) to \(asked)"
        let (why, fix): (String, String)
        switch rcode {
        case .refused:
            why =
                "it runs, but refuses \(zone) to this machine: it does not serve the zone (not authoritative for it, no recursion "
                + "for this client), or an ACL refuses this address"
            fix =
                "give --server the zone's own server, or make this one serve it (BIND: a `zone` block with the file and "
                + "`allow-query` for this address; CoreDNS: a server block for the zone); a resolver answers only with recursion "
                + "allowed for this client"
        case .notAuth:
            why = "it is not authoritative for \(zone)"
            fix = "give --server the zone's primary, or a secondary that has loaded it"
        case .notImp:
            why = "it does not implement this question: not a DNS server that serves \(zone)"
            fix = "give --server a DNS server that serves \(zone) (BIND, Knot, NSD, CoreDNS)"
        default:
            why = "it runs, but failed to answer for \(zone): the zone did not load, or the server it forwards to is unreachable"
            fix = "its log says why; a zone file that does not load: `clawnet zone check FILE` and the server's own check (named-checkzone)"
        }
        return FindingText("\(answered): \(why)", fix: fix)
    }

    /// ` (it answered RCODE)`, with the likely cause of a BADKEY.
    private static func refusedAnswer(_ answer: String) -> String {
        " (it answered \(answer)\(answer.hasSuffix("(BADKEY)") ? ": a Knot acl without `transfer`" : ""))"
    }

    /// A linter finding on the zone as served: the server, and the record's place in the transfer.
    private static func servedFinding(_ words: FindingText, code: FindingCode, server: DNSServer, record: Int?) -> FindingText {
        let place = record.map { " (record \($0) of the transfer)" } ?? ""
        // A served zone that UPDATEs feed counts its serial up from whatever it was: nothing to fix.
        if code == .serialNotDated {
            return FindingText("served by \(server): \(words.message), as UPDATEs count it up\(place)")
        }
        return FindingText("served by \(server): \(words.message)\(place)", fix: words.fix)
    }

    private static func text(_ skipped: ServedZoneChecks.Skipped) -> String {
        switch skipped {
        case .lint: "the zone as served was not checked"
        case .comparison: "the servers were not compared"
        case .probes: "its Gateways' addresses were not tried"
        }
    }

    /// Servers against each other, and the Gateways they serve tried over TCP.
    private static func agreement(_ detail: Finding.Detail) -> FindingText? {
        switch detail {
        case .serverLags(let lagging, let zone, let serial, let leaders, let newest):
            FindingText(
                "\(lagging) serves \(zone) with \(serial.map { "serial \($0)" } ?? "no SOA"), \(leaders.joined(separator: ", ")) with "
                    + "\(newest): \(lagging) lags behind",
                fix: "on the primary: `notify yes;` and `allow-transfer` for \(lagging) (Knot: `notify:` and an acl with "
                    + "`action: transfer`); on \(lagging): the zone is `type secondary` with the primary in `primaries`; "
                    + "its log says why the transfer failed")
        case .serversDiffer(let server, let reference, let serial, let zone, let records, let missing, let extra):
            FindingText(
                "\(server) and \(reference) both serve serial \(serial) of \(zone) but differ in \(Plural.counted(records, "record")) "
                    + "(\(server): \([missing.map { "missing \($0)" }, extra.map { "extra \($0)" }].compactMap { $0 }.min() ?? ""))",
                fix: "the zone changed without a serial bump somewhere: bump the serial on the primary (dynamic updates do it) and "
                    + "let the secondaries transfer again")
        case .serversAgree(let servers, let zone, let serial, let records):
            FindingText("\(servers.joined(separator: ", ")) serve \(zone) with serial \(serial) and the same \(records) records")
        case .probesCapped(let server, let limit, let service):
            FindingText("\(server) serves more than \(limit) instances of \(service); the first \(limit) were tried")
        case .gatewayRefused(let label, let host, let port, let tried):
            FindingText(
                "'\(label)' is served at \(host):\(port), but nothing accepts TCP there (\(tried.joined(separator: ", ")): connection "
                    + "refused): a record left behind by a Gateway that is not running (a crashed `clawnet advertise --domain`?)",
                fix: "start the Gateway, or remove its record: `clawnet zone push --prune` with the Gateways that remain")
        case .gatewayUnreachable(let label, let tried):
            FindingText(
                "'\(label)' at \(tried.joined(separator: ", ")) does not answer TCP from here (no answer or no route): a firewall, or "
                    + "this machine is not on the Gateway's network")
        case .gatewaysReachable(let count):
            FindingText("\(Plural.counted(count, "served Gateway")) \(count == 1 ? "accepts" : "accept") TCP on the SRV port")
        default: nil
        }
    }
}
