import Avahi
import DNSSD
import Discovery
import FoundationEssentials
import Host
import Probes
import Synchronization

/// Doctor's network as a test records it (`io`): each question gets its recorded answer at
/// once, whatever its time limit; nothing opens a socket or asks a daemon. Every question is
/// kept (`asked`); one the recording has no answer for is kept in `unanswered` too, for the
/// test to fail on, and gets the answer of a network where nothing answers.
package final class RecordedNetwork: Sendable {
    package struct Answers: Sendable {
        /// What getaddrinfo says of a host name.
        package var hosts: [String: Result<[IPAddress], HostLookup.Failure>] = [:]
        /// What avahi-daemon says of a `.local` name.
        package var mdnsHosts: [String: AvahiHostLookup.Answer] = [:]
        /// What avahi-daemon says of an address (a reverse look-up).
        package var mdnsNames: [IPAddress: AvahiAddressLookup.Answer] = [:]
        /// What Tailscale's resolver says of a MagicDNS name.
        package var magicDNS: [String: [IPAddress]] = [:]
        /// Each Gateway's probe by what was probed (`probeKey`: `ws://HOST:PORT`, `wss://HOST:PORT`),
        /// made for the very target asked (its label, credentials and policy).
        package var probes: [String: @Sendable (ProbeTarget) -> ProbeReport] = [:]

        package init() {}
    }

    /// A question doctor asked of the network.
    package enum Question: Sendable, Hashable, CustomStringConvertible {
        case host(String)
        case mdnsHost(String)
        case mdnsName(IPAddress)
        case magicDNS(String)
        case probe(String)

        package var description: String {
            switch self {
            case .host(let name): "getaddrinfo \(name)"
            case .mdnsHost(let name): "avahi-daemon: addresses of \(name)"
            case .mdnsName(let address): "avahi-daemon: name of \(address)"
            case .magicDNS(let name): "100.100.100.100: \(name)"
            case .probe(let key): "probe \(key)"
            }
        }
    }

    private let answers: Answers
    private let now: Date
    private let log = Mutex<[(question: Question, answered: Bool)]>([])

    /// `now`: the instant certificates are judged against.
    package init(_ answers: Answers = Answers(), now: Date = Date()) {
        self.answers = answers
        self.now = now
    }

    /// Every question, in the order asked.
    package var asked: [Question] { log.withLock { $0.map(\.question) } }
    /// The questions the recording had no answer for.
    package var unanswered: [Question] { log.withLock { $0.filter { !$0.answered }.map(\.question) } }

    /// How `Answers.probes` names what was probed.
    package static func probeKey(_ target: ProbeTarget) -> String {
        let host = target.host.contains(":") ? "[\(target.host)]" : target.host
        return "\(target.tls ? "wss" : "ws")://\(host):\(target.port)"
    }

    /// Doctor's I/O on these answers, with `discovery` (recorded too: nothing found, by default).
    package func io(discovery: any Discovering = RecordedDiscovery(events: [])) -> DoctorIO {
        DoctorIO(
            discovery: discovery,
            hostAddresses: { host, _ in
                self.answer(.host(host), self.answers.hosts[host])
                    ?? .failure(HostLookup.Failure(message: "cannot resolve \(host): no recorded answer", kind: .notFound))
            },
            mdnsAddresses: { host, _ in self.answer(.mdnsHost(host), self.answers.mdnsHosts[host]) ?? .noAnswer },
            mdnsNames: { addresses, _ in
                var found: [IPAddress: AvahiAddressLookup.Answer] = [:]
                for address in addresses { found[address] = self.answer(.mdnsName(address), self.answers.mdnsNames[address]) }
                return found
            },
            magicDNSAddresses: { host, _ in
                let name = host.withoutTrailingDot
                return self.answer(.magicDNS(name), self.answers.magicDNS[name]) ?? []
            },
            probe: { targets, _, _, phases in
                targets.map { target in
                    let key = Self.probeKey(target)
                    let report = self.answer(.probe(key), self.answers.probes[key])?(target) ?? ProbeReport(target: target)
                    return Self.trimmed(report, to: phases)
                }
            },
            now: { [now] in now })
    }

    /// What a probe asked for `phases` only would have reported (the phases `GatewayProbe.run` skips).
    static func trimmed(_ report: ProbeReport, to phases: GatewayProbe.Phases) -> ProbeReport {
        var report = report
        if phases.isDisjoint(with: [.tls, .health, .websocket]) { report.tls = nil }
        if !phases.contains(.health) { (report.health, report.ready, report.idle) = (nil, nil, nil) }
        if !phases.contains(.websocket) { (report.websocket, report.idle) = (nil, nil) }
        if !phases.contains(.connect) { (report.connect, report.connectTries, report.credentials) = (nil, [], nil) }
        return report
    }

    private func answer<Answer>(_ question: Question, _ answer: Answer?) -> Answer? {
        log.withLock { $0.append((question, answer != nil)) }
        return answer
    }
}
