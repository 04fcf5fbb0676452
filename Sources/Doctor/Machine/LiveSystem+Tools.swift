import FoundationEssentials
import Glibc
import Host

/// What LiveSystem asks the system's own tools, each only where doctor needs it (MachineFacts
/// decides when) and each bounded (SystemTool). Where a tool is missing or its daemon does not
/// run, the answer is nil and the checks say nothing about it.
extension LiveSystem {
    /// `resolvectl status`: systemd-resolved's links.
    package func resolvedStatus() -> ResolvedStatus? {
        SystemTool.output("/usr/bin/resolvectl", ["status", "--no-pager"]).map { ResolvedStatus(text: String(decoding: $0, as: UTF8.self)) }
    }

    /// `tailscale serve status --json`.
    package func tailscaleServe() -> TailscaleServeStatus? {
        SystemTool.output("/usr/bin/tailscale", ["serve", "status", "--json"]).flatMap { TailscaleServeStatus(json: $0) }
    }

    /// The Gateway's user unit: `systemctl --user show` (as root, in the user manager of the
    /// config file's owner), and its last journal lines.
    package func gatewayService() -> GatewayService? {
        guard FileManager.default.fileExists(atPath: "/run/systemd/system") else { return nil }  // systemd is not PID 1
        var scope = ["--user"]
        if getuid() == 0, let owner = config().fileOwner, owner != 0, let entry = getpwuid(owner), let name = entry.pointee.pw_name {
            scope.append("--machine=\(String(cString: name))@")
        }
        let properties = GatewayService.properties.flatMap { ["-p", $0] }
        guard let show = SystemTool.output("/usr/bin/systemctl", scope + ["show", GatewayService.unit] + properties) else { return nil }
        let journal = SystemTool.output(
            "/usr/bin/journalctl",
            ["--no-pager", "-o", "short", "-n", String(GatewayService.journalLimit), "_SYSTEMD_USER_UNIT=\(GatewayService.unit)"])
        return GatewayService(
            show: String(decoding: show, as: UTF8.self), journal: journal.map { String(decoding: $0, as: UTF8.self) } ?? "")
    }
}
