import Host

/// What decides whether a Gateway on this machine advertises `_openclaw-gw._tcp` by mDNS, in
/// the order OpenClaw applies it: `discovery.mdns.mode` and OPENCLAW_DISABLE_BONJOUR
/// (src/gateway/server-discovery-runtime.ts), the bonjour plugin's enablement
/// (src/plugins/config-state.ts), then the advertiser's own environment check
/// (extensions/bonjour/src/advertiser.ts, isDisabledByEnv: OPENCLAW_DISABLE_BONJOUR wins either
/// way, else a container turns it off).
package enum AdvertisingSwitch: Sendable, Equatable {
    case mdnsModeOff
    case disabledByEnvironment(String)
    case pluginsDisabled
    case pluginDenied
    case pluginNotAllowed
    case pluginEntryDisabled
    /// The container marker the advertiser found.
    case container(String)
    /// Everything is on, and the advertiser stopped at run time (the Gateway's journal says why).
    case advertiserStopped(GatewayService.AdvertiserStop)

    /// The switch that is off; nil when this machine's Gateway advertises.
    package static func off(_ settings: AdvertisingSettings, container: String?) -> AdvertisingSwitch? {
        if settings.mdnsMode == .off { return .mdnsModeOff }
        let override = settings.disableBonjourOverride
        if override == true { return .disabledByEnvironment(settings.disableBonjour ?? "1") }
        if settings.pluginsEnabled == false { return .pluginsDisabled }
        if settings.pluginsDeny?.contains(AdvertisingSettings.pluginID) == true { return .pluginDenied }
        if settings.bonjourEntryEnabled == false { return .pluginEntryDisabled }
        if let allow = settings.pluginsAllow, !allow.isEmpty, !allow.contains(AdvertisingSettings.pluginID) { return .pluginNotAllowed }
        if override == nil, let container { return .container(container) }
        return nil
    }
}

/// This machine's side of advertising: whether it is a container (the advertiser's markers) or
/// WSL2 (mDNS stays inside WSL's NAT network).
package struct PlatformFacts: Sendable, Equatable {
    /// The first container marker found: FLY_MACHINE_ID with FLY_APP_NAME, /.dockerenv,
    /// /run/.containerenv, /var/run/.containerenv, or a container cgroup of PID 1.
    package var container: String?
    package var wsl2: Bool

    package init(container: String? = nil, wsl2: Bool = false) {
        self.container = container
        self.wsl2 = wsl2
    }

    /// The cgroup paths extensions/bonjour/src/advertiser.ts takes for a container.
    package static func cgroupMarker(_ cgroup: String) -> String? {
        let lines = cgroup.split(separator: "\n")
        if lines.contains(where: { $0.contains("/docker/") }) { return "/proc/1/cgroup (docker)" }
        if lines.contains(where: { $0.contains("cri-containerd-") || $0.contains("containerd/") }) { return "/proc/1/cgroup (containerd)" }
        if lines.contains(where: { $0.contains("/kubepods/") || $0.contains("/kubepods.") }) { return "/proc/1/cgroup (kubepods)" }
        if lines.contains(where: { $0.split(whereSeparator: { !$0.isLetter }).contains("lxc") }) { return "/proc/1/cgroup (lxc)" }
        if lines.contains(where: { $0.contains("/cloudchamber") }) { return "/proc/1/cgroup (cloudchamber)" }
        return nil
    }

    /// LXC, podman and systemd-nspawn set `container=` in PID 1's environment
    /// (`/proc/1/environ`, NUL-separated).
    package static func environMarker(_ environ: [UInt8]) -> String? {
        for entry in environ.split(separator: 0) where entry.starts(with: Array("container=".utf8)) {
            let kind = String(decoding: entry.dropFirst("container=".utf8.count).prefix(32), as: UTF8.self)
            return "/proc/1/environ (container=\(kind))"
        }
        return nil
    }

    /// WSL2 kernels name themselves in their release (`...-microsoft-standard-WSL2`).
    package static func isWSL2(osRelease: String) -> Bool {
        let release = osRelease.lowercased()
        return release.contains("wsl2") || release.contains("microsoft-standard")
    }
}
