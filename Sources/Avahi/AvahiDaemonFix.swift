/// The two fixes for an avahi-daemon that does not answer: start the one that is installed,
/// or install it. Browse's issues and doctor's checks say the same.
package enum AvahiDaemonFix {
    /// avahi-daemon is installed but not running.
    package static let start = "start it: `sudo systemctl start avahi-daemon` (without systemd: `sudo avahi-daemon -D`)"

    /// avahi-daemon is not installed. The package is avahi-daemon on Debian and Ubuntu, avahi on
    /// Fedora and Arch; it brings D-Bus along.
    package static let install =
        "install it: `sudo apt install avahi-daemon` (Fedora, Arch: the avahi package), then `sudo systemctl enable --now avahi-daemon`"
}
