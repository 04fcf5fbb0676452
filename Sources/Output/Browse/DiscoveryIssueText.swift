import Avahi
import DNSSD

/// The words of a discovery issue, written from its code and values: the message, and the fix.
/// The one place a `DiscoveryIssue` becomes English, as `ZoneErrorText` is for zone errors.
package struct DiscoveryIssueText: Equatable, Sendable {
    package let message: String
    package let fix: String?

    init(_ message: String, fix: String? = nil) {
        self.message = message
        self.fix = fix
    }

    package init(_ issue: DiscoveryIssue) {
        let words = Self.avahi(issue.code) ?? Self.unicast(issue.code, domain: issue.domain ?? "") ?? Self.other(issue.code)
        // What one browse of a domain met starts with the domain's name.
        let prefixed = issue.source == .unicast && Self.namesItsDomain(issue.code)
        let message = prefixed ? "\(issue.domain ?? ""): \(words.message)" : words.message
        self.init(issue.waitsForReturn ? message + "; waiting for it to come back" : message, fix: words.fix)
    }

    /// Avahi and its bus, browsing and publishing by mDNS.
    private static func avahi(_ code: DiscoveryIssue.Code) -> DiscoveryIssueText? {
        switch code {
        case .busNotRunning(let socket, let installed, let meanwhile):
            let fix =
                installed
                ? "start D-Bus: `sudo systemctl start dbus` (containers without systemd: `mkdir -p /run/dbus && dbus-daemon --system "
                    + "--fork`), then avahi-daemon"
                : "avahi-daemon is not installed: \(AvahiDaemonFix.install)"
            return DiscoveryIssueText(
                "the D-Bus system bus is not running (no socket at \(socket)); Avahi is reached over D-Bus",
                fix: "\(fix). \(Self.meanwhile(meanwhile))")
        case .daemonNotRunning(let bus, let installed, let meanwhile):
            return DiscoveryIssueText(
                "avahi-daemon is not running (nothing answers for org.freedesktop.Avahi on \(bus))",
                fix: "\(start(installed)). \(Self.meanwhile(meanwhile))")
        case .daemonDisconnected(let installed):
            return DiscoveryIssueText(
                "lost the connection to avahi-daemon (it stopped or restarted)",
                fix: "check `systemctl status avahi-daemon`; \(start(installed))")
        case .busAccessDenied:
            return DiscoveryIssueText(
                "D-Bus policy denies access to avahi-daemon",
                fix: "check /usr/share/dbus-1/system.d/avahi-dbus.conf (reinstall avahi-daemon) and reload D-Bus")
        case .daemonUnreachable(let bus, let error, let installed, let meanwhile):
            return DiscoveryIssueText(
                "cannot talk to avahi-daemon over D-Bus at \(bus): \(error)", fix: "\(start(installed)). \(Self.meanwhile(meanwhile))")
        case .eventLoopFailed: return DiscoveryIssueText("could not create an Avahi event loop")
        case .eventLoopThreadFailed: return DiscoveryIssueText("could not start the Avahi event loop thread")
        case .entryGroupFailed(let error): return DiscoveryIssueText("could not create an Avahi entry group: \(error)")
        case .publishRefused(let name, let error): return DiscoveryIssueText("Avahi refused to publish '\(name)': \(error)")
        case .publishFailed(let name, let error): return DiscoveryIssueText("publishing '\(name)' failed: \(error)")
        default: return browsing(code)
        }
    }

    /// Browsing and resolving by mDNS.
    private static func browsing(_ code: DiscoveryIssue.Code) -> DiscoveryIssueText? {
        switch code {
        case .fellBehind(let events):
            DiscoveryIssueText(
                "clawnet fell \(events) events behind avahi-daemon (is its output being read?): mDNS browsing stopped, so this list "
                    + "may be incomplete")
        case .browseRefused(let type, let error):
            DiscoveryIssueText(
                "avahi-daemon refused to browse \(type): \(error)", fix: "check the avahi-daemon log (`journalctl -u avahi-daemon`)")
        case .browseFailed(let type, let error):
            DiscoveryIssueText("browsing \(type) failed: \(error)")
        case .tooManyObjects(let instance, let type, let objects):
            DiscoveryIssueText(
                "avahi-daemon refused to resolve '\(instance)' and the instances after it: it allows one client "
                    + "\(objects) browsers and resolvers at once (Too many objects), so this list of \(type) is incomplete",
                fix:
                    "more instances are announced on this LAN than a Gateway fleet has: count them with `avahi-browse -pt "
                    + "\(type) | wc -l` and find the host that floods; or raise objects-per-client-max in "
                    + "/etc/avahi/avahi-daemon.conf")
        case .unresolved(let instances, let examples):
            unresolved(instances, examples: examples)
        default: nil
        }
    }

    /// One counted line however many names a flood announces; the examples are SafeText already.
    private static func unresolved(_ count: Int, examples: [String]) -> DiscoveryIssueText {
        let listed = examples.map { "'\($0)'" }.joined(separator: ", ")
        let more = count > examples.count ? " and \(count - examples.count) more" : ""
        let names = count == 1 ? "1 instance announced by mDNS" : "\(count) instances announced by mDNS"
        return DiscoveryIssueText(
            "\(names) could not be resolved (no SRV, TXT or address answered in time): \(listed)\(more)",
            fix: "the Gateways that resolved are listed; names that never resolve belong to hosts gone without a goodbye, "
                + "or to a host flooding the LAN with names: `avahi-browse -at` shows them")
    }

    private static func start(_ installed: Bool) -> String {
        installed ? AvahiDaemonFix.start : AvahiDaemonFix.install
    }

    private static func meanwhile(_ meanwhile: DiscoveryIssue.Meanwhile) -> String {
        switch meanwhile {
        case .otherPaths: "Meanwhile, wide-area DNS-SD (--domain) and manual targets (--manual) work without Avahi."
        case .serveOnly: "Meanwhile, `clawnet advertise --serve-only` answers like a Gateway without publishing a beacon."
        }
    }

    /// The codes of one browse of a domain (UnicastBrowse): their message starts with the domain.
    private static func namesItsDomain(_ code: DiscoveryIssue.Code) -> Bool {
        switch code {
        case .serviceNameInvalid, .ptrUnanswered, .ptrTruncated, .tooManyInstances, .ptrNotInstance, .instanceLabelInvalid,
            .eightBitNamesRefused, .srvMissing:
            true
        default: false
        }
    }
}
