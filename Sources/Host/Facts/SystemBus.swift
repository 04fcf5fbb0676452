import FoundationEssentials

/// The D-Bus system bus that libdbus (and so libavahi-client) connects to.
package enum SystemBus {
    /// libdbus's default when DBUS_SYSTEM_BUS_ADDRESS is unset or empty.
    package static let defaultAddress = "unix:path=/var/run/dbus/system_bus_socket"

    package static func address(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultAddress
    }

    /// The socket path of a `unix:path=` bus address; nil for other transports.
    package static func socketPath(of address: String) -> String? {
        guard let range = address.firstRange(of: "unix:path=") else { return nil }
        return String(address[range.upperBound...].prefix { $0 != "," && $0 != ";" })
    }
}
