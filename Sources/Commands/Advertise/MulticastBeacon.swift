import Avahi
import DNSSD
import Output

/// The beacon published by mDNS in local. until a signal (or until Avahi's stream ends),
/// each event printed as it comes.
struct MulticastBeacon {
    let name: String
    let port: Int
    let txt: TXTRecord

    /// How publishing ended: Avahi could not publish at all, a stop (the beacon withdrawn), or
    /// Avahi's stream ended by itself.
    private enum Ending: Sendable {
        case unavailable(DiscoveryIssue)
        case stopped(current: String)
        case ended
    }

    /// Throws the issue when Avahi could not publish and never did: no D-Bus or no daemon.
    func advertise(until signals: AsyncStream<Int32>, context: CommandContext) async throws {
        let terminal = context.terminal
        terminal.err(AdvertiseLines.advertising(name, port: port))
        let advertisements = MulticastAdvertiser().advertise(name: name, type: .gateway, port: port, txt: txt)
        let name = self.name
        // A stop cancels the loop: the stream's iteration ends, and with it the publication.
        let ending = await context.runUntilStopped(signals: signals) { () -> Ending in
            var current = name
            var established = false
            for await event in advertisements {
                if case .failed(let issue) = event, !established, issue.kind == .busMissing || issue.kind == .daemonMissing {
                    return .unavailable(issue)
                }
                switch event {
                case .established(let published):
                    established = true
                    current = published
                case .renamed(_, let new): current = new
                case .failed: break
                }
                terminal.print(AdvertiseLines.event(event, terminal: terminal))
            }
            return Task.isCancelled ? .stopped(current: current) : .ended
        }
        switch ending {
        case .unavailable(let issue): throw issue
        case .stopped(let current): terminal.err(AdvertiseLines.withdrawn(current))
        case .ended: break
        }
    }
}
