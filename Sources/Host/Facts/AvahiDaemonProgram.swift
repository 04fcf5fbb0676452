import Glibc

/// Whether avahi-daemon is installed on this machine: its program is where distributions put
/// it. Doctor tells "install it" from "start it" by this, never by the D-Bus error.
package enum AvahiDaemonProgram {
    /// Debian, Ubuntu, Fedora and Arch install it in /usr/sbin; the others cover merged-/usr
    /// and older layouts.
    static let paths = ["/usr/sbin/avahi-daemon", "/sbin/avahi-daemon", "/usr/bin/avahi-daemon"]

    package static func isInstalled() -> Bool {
        paths.contains { access($0, X_OK) == 0 }
    }
}
