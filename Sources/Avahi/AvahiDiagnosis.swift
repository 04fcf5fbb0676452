import CAvahi
import DNSSD
import FoundationEssentials
import Host

/// What clawnet wanted from Avahi: the fix names the way around it that the command has.
package enum AvahiPurpose: Sendable {
    /// browse, doctor: wide-area DNS-SD and manual targets work without Avahi.
    case browse
    /// advertise: publishing goes through avahi-daemon; serving works without it.
    case publish
}

/// Turns Avahi error codes into issues that name the cause and the fix.
enum AvahiDiagnosis {
    static var busAddress: String { SystemBus.address() }

    static func message(for code: Int32) -> String {
        String(cString: avahi_strerror(code))
    }

    /// Why a client could not be created or was lost.
    static func issue(for code: Int32, lost: Bool = false, purpose: AvahiPurpose = .browse) -> DiscoveryIssue {
        let meanwhile: DiscoveryIssue.Meanwhile =
            switch purpose {
            case .browse: .otherPaths
            case .publish: .serveOnly
            }
        let installed = AvahiDaemonProgram.isInstalled()
        if let socket = SystemBus.socketPath(of: busAddress), !FileManager.default.fileExists(atPath: socket) {
            return DiscoveryIssue(
                source: .mdns, kind: lost ? .daemonLost : .busMissing,
                .busNotRunning(socket: socket, installed: installed, meanwhile: meanwhile))
        }
        switch code {
        case Int32(AVAHI_ERR_NO_DAEMON):
            return DiscoveryIssue(
                source: .mdns, kind: .daemonMissing, .daemonNotRunning(bus: busAddress, installed: installed, meanwhile: meanwhile))
        case Int32(AVAHI_ERR_DISCONNECTED):
            return DiscoveryIssue(source: .mdns, kind: .daemonLost, .daemonDisconnected(installed: installed))
        case Int32(AVAHI_ERR_ACCESS_DENIED):
            return DiscoveryIssue(source: .mdns, kind: .busMissing, .busAccessDenied)
        default:
            return DiscoveryIssue(
                source: .mdns, kind: lost ? .daemonLost : .daemonMissing,
                .daemonUnreachable(bus: busAddress, error: message(for: code), installed: installed, meanwhile: meanwhile))
        }
    }
}
