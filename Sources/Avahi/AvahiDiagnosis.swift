import CAvahi
import DNSSD
import FoundationEssentials
import Host

/// What clawnet wanted from Avahi: the fix names the way around it that the command has.
public enum AvahiPurpose: Sendable {
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
        let alternatives =
            switch purpose {
            case .browse: "Meanwhile, wide-area DNS-SD (--domain) and manual targets (--manual) work without Avahi."
            case .publish: "Meanwhile, `clawnet advertise --serve-only` answers like a Gateway without publishing a beacon."
            }
        let installed = AvahiDaemonProgram.isInstalled()
        if let socket = SystemBus.socketPath(of: busAddress), !FileManager.default.fileExists(atPath: socket) {
            let fix =
                installed
                ? "start D-Bus: `sudo systemctl start dbus` (containers without systemd: `mkdir -p /run/dbus && dbus-daemon --system "
                    + "--fork`), then avahi-daemon"
                : "avahi-daemon is not installed: \(AvahiDaemonFix.install)"
            return DiscoveryIssue(
                source: .mdns, kind: lost ? .daemonLost : .busMissing,
                message: "the D-Bus system bus is not running (no socket at \(socket)); Avahi is reached over D-Bus",
                fix: "\(fix). \(alternatives)"
            )
        }
        let start = installed ? AvahiDaemonFix.start : AvahiDaemonFix.install
        switch code {
        case Int32(AVAHI_ERR_NO_DAEMON):
            return DiscoveryIssue(
                source: .mdns, kind: .daemonMissing,
                message: "avahi-daemon is not running (nothing answers for org.freedesktop.Avahi on \(busAddress))",
                fix: "\(start). \(alternatives)"
            )
        case Int32(AVAHI_ERR_DISCONNECTED):
            return DiscoveryIssue(
                source: .mdns, kind: .daemonLost,
                message: "lost the connection to avahi-daemon (it stopped or restarted)",
                fix: "check `systemctl status avahi-daemon`; \(start)"
            )
        case Int32(AVAHI_ERR_ACCESS_DENIED):
            return DiscoveryIssue(
                source: .mdns, kind: .busMissing,
                message: "D-Bus policy denies access to avahi-daemon",
                fix: "check /usr/share/dbus-1/system.d/avahi-dbus.conf (reinstall avahi-daemon) and reload D-Bus"
            )
        default:
            return DiscoveryIssue(
                source: .mdns, kind: lost ? .daemonLost : .daemonMissing,
                message: "cannot talk to avahi-daemon over D-Bus at \(busAddress): \(message(for: code))",
                fix: "\(start). \(alternatives)"
            )
        }
    }
}
