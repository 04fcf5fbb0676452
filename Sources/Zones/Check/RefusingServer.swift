import DNSSD
import DNSWire

/// A server that answered a question about the zone with REFUSED, NOTAUTH, NOTIMP or SERVFAIL:
/// it runs and listens (it answered), but will not or cannot serve this zone to this machine.
/// One finding (Output's words give the fix that answer calls for); nothing more is asked of that server.
package enum RefusingServer {
    /// The question that was refused.
    package enum Question: Sendable, Hashable {
        /// The zone's SOA (comparing a file with the server).
        case soa
        /// Its transfer, or its Gateways' RRsets.
        case aboutZone
    }

    /// The finding for `rcode` to `question`, nil for another code.
    static func finding(_ rcode: RCode, server: DNSServer, zone: DNSName, question: Question) -> Finding? {
        guard [.refused, .notAuth, .notImp, .servFail].contains(rcode) else { return nil }
        return Finding(.fail, .serverRefuses(rcode, server, zone: zone, question: question))
    }
}
