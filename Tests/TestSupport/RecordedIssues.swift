import DNSSD

/// Discovery issues as Avahi gives them, for tests that need one whatever its values.
extension DiscoveryIssue {
    /// No D-Bus system bus (no socket), avahi-daemon installed.
    package static let noBus = DiscoveryIssue(
        source: .mdns, kind: .busMissing,
        .busNotRunning(socket: "/run/dbus/system_bus_socket", installed: true, meanwhile: .otherPaths))

    /// D-Bus without avahi-daemon (installed, not running).
    package static let noDaemon = DiscoveryIssue(
        source: .mdns, kind: .daemonMissing,
        .daemonNotRunning(bus: "unix:path=/run/dbus/system_bus_socket", installed: true, meanwhile: .otherPaths))
}
