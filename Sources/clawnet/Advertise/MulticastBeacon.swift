import Avahi
import DNSSD
import Output

/// The beacon published by mDNS in local. until a signal (or until Avahi's stream ends),
/// each event printed as it comes.
struct MulticastBeacon {
    let name: String
    let port: Int
    let txt: TXTRecord

    /// What the loop waits for: news of the beacon, or a signal to stop.
    private enum Step {
        case beacon(AdvertiseEvent)
        case signal(Int32)
    }

    /// Throws the issue when Avahi could not publish and never did: no D-Bus or no daemon.
    func advertise(until signals: AsyncStream<Int32>, terminal: Terminal) async throws {
        terminal.err(AdvertiseLines.advertising(name, port: port))
        var current = name
        var established = false
        for await step in steps(until: signals) {
            switch step {
            case .beacon(.failed(let issue)) where !established && (issue.kind == .busMissing || issue.kind == .daemonMissing):
                throw issue
            case .beacon(let event):
                switch event {
                case .established(let published):
                    established = true
                    current = published
                case .renamed(_, let new): current = new
                case .failed: break
                }
                terminal.print(AdvertiseLines.event(event, terminal: terminal))
            case .signal:
                terminal.err(AdvertiseLines.withdrawn(current))
                return
            }
        }
    }

    /// Avahi's events and the signals, as one stream.
    private func steps(until signals: AsyncStream<Int32>) -> AsyncStream<Step> {
        let advertisements = MulticastAdvertiser().advertise(name: name, type: .gateway, port: port, txt: txt)
        return AsyncStream<Step> { continuation in
            let advertiseTask = Task {
                for await event in advertisements { continuation.yield(.beacon(event)) }
                continuation.finish()
            }
            let signalTask = Task {
                for await number in signals { continuation.yield(.signal(number)) }
            }
            continuation.onTermination = { _ in
                advertiseTask.cancel()
                signalTask.cancel()
            }
        }
    }
}
