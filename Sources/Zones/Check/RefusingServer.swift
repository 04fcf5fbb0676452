import DNSSD
import DNSWire

/// A server that answered a question about the zone with REFUSED, NOTAUTH, NOTIMP or SERVFAIL:
/// it runs and listens (it answered), but will not or cannot serve this zone to this machine.
/// One finding, with the fix that answer calls for; nothing more is asked of that server.
enum RefusingServer {
    /// The finding for `rcode` to `question` (e.g. `SOA openclaw.internal.`), nil for another code.
    static func finding(_ rcode: RCode, server: DNSServer, zone: DNSName, question: String) -> Finding? {
        let answered = "\(server) answered \(rcode) to \(question)"
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
        case .servFail:
            why = "it runs, but failed to answer for \(zone): the zone did not load, or the server it forwards to is unreachable"
            fix = "its log says why; a zone file that does not load: `clawnet zone check FILE` and the server's own check (named-checkzone)"
        default:
            return nil
        }
        return Finding(.fail, .serverRefuses, "\(answered): \(why)", fix: fix)
    }
}
