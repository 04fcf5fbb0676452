import Avahi
import DNSSD
import DNSUpdate
import Probes
import Zones

/// What `advertise` prints while it runs: the mDNS beacon, the stand-in Gateway, the
/// wide-area registration. All of it is status, on stderr, as every command's status lines are
/// (advertise has no product for stdout).
package enum AdvertiseLines {
    package static func advertising(_ name: String, port: Int) -> String {
        "advertising \"\(name)\" as \(ServiceType.gateway.name) on port \(port) in local. (Ctrl-C to stop)"
    }

    /// News of the mDNS beacon.
    package static func event(_ event: AdvertiseEvent, terminal: Terminal) -> Transcript {
        var transcript = Transcript()
        switch event {
        case .established(let published): transcript.err("established: \(published)")
        case .renamed(let old, let new): transcript.err("renamed: \"\(old)\" is taken on the network; now \"\(new)\"")
        case .failed(let issue): transcript.err(lines: IssueLines.lines([issue], terminal: terminal))
        }
        return transcript
    }

    package static func withdrawn(_ name: String) -> String {
        "withdrawn: \(name)"
    }

    package static let serveOnly = "no beacon is published (--serve-only); Ctrl-C to stop"
    package static let stoppedServing = "stopped serving"

    package static func serving(_ gateway: StandInGateway, port: Int) -> String {
        let security = gateway.fingerprint.map { "TLS 1.3, sha256 \($0.hex)" } ?? "plain, no TLS"
        return "serving on \(Endpoint(host: gateway.address, port: port)) like a Gateway (\(security))"
    }

    /// A connect request as the stand-in read it: what a node showed (never the token itself).
    package static func connect(from client: String, _ received: StandInConnect.Received) -> String {
        "connect from \(client): \(received)"
    }

    package static func madeCertificate(_ store: StandInIdentityStore) -> String {
        "made a certificate: \(store.certificatePath) (key \(store.keyPath))"
    }

    /// News of the wide-area registration.
    package static func registration(_ event: WideAreaRegistration.Event, of beacon: WideAreaRegistration) -> Transcript {
        var transcript = Transcript()
        let name = "\"\(beacon.displayName)\" in \(beacon.domain.name)"
        switch event {
        case .noAddress(let host): transcript.notes(["no routable address for \(host) in \(beacon.domain.name): give --address IP"])
        case .registered(let already):
            transcript.err("registered \(name) at \(beacon.registrar.server)\(already ? " (already there)" : "")")
        case .reRegistered: transcript.err("re-registered \(name) at \(beacon.registrar.server)")
        case .replacing(let host, let set): transcript.notes(["host \(host) \(set) (put back when advertise stops)"])
        case .refreshFailed(let error): transcript.err("warning: refreshing \(name): \(error.message)")
        case .ledgerNotKept(let path, let error):
            transcript.err(
                "warning: cannot keep what was registered in \(path) (\(error)): after a crash, a restart will not know which of the "
                    + "host's records this run added, and leaves them")
        case .ledgerIgnored(let reason):
            transcript.err(
                "warning: ignoring the ledger of an earlier run: \(reason); clawnet reads back only a file this user alone could have "
                    + "written, and neither adopts nor removes this one")
        case .withdrawn(let withdrawal):
            let why =
                switch withdrawal {
                case .taken: ""
                case .wereThereBefore: " (its records were there before advertise ran: they stay)"
                case .nothingLeft: " (nothing of what it added was left there)"
                }
            transcript.err("withdrawn from \(beacon.domain.name): \(beacon.displayName)\(why)")
        }
        return transcript
    }
}
