import Doctor

/// The words of the switch that keeps a Gateway from advertising: as a user finds it, and how
/// to turn it back on.
extension AdvertisingSwitch {
    /// The switch as a user finds it.
    var setting: String {
        switch self {
        case .mdnsModeOff: "discovery.mdns.mode is \"off\""
        case .disabledByEnvironment(let value): "OPENCLAW_DISABLE_BONJOUR=\(value) in the environment"
        case .pluginsDisabled: "plugins.enabled is false (every plugin, bonjour included, is off)"
        case .pluginDenied: "plugins.deny lists \"bonjour\""
        case .pluginNotAllowed: "plugins.allow does not list \"bonjour\""
        case .pluginEntryDisabled: "plugins.entries.bonjour.enabled is false"
        case .container(let marker): "this machine is a container (\(marker)): OpenClaw's advertiser turns itself off there"
        case .advertiserStopped(let stop): stop.setting
        }
    }

    /// How to turn it back on.
    func fix(configPath: String) -> String {
        let restart = "and restart the Gateway"
        switch self {
        case .mdnsModeOff:
            return "set discovery.mdns.mode to \"minimal\" (the default) or \"full\" in \(configPath) \(restart)"
        case .disabledByEnvironment:
            return "unset OPENCLAW_DISABLE_BONJOUR in the Gateway's environment (its service unit or shell) \(restart)"
        case .pluginsDisabled:
            return "set plugins.enabled to true in \(configPath) \(restart)"
        case .pluginDenied:
            return "remove \"bonjour\" from plugins.deny in \(configPath) \(restart)"
        case .pluginNotAllowed:
            return "add \"bonjour\" to plugins.allow in \(configPath) \(restart)"
        case .pluginEntryDisabled:
            return "set plugins.entries.bonjour.enabled to true in \(configPath) \(restart)"
        case .container:
            return
                "run the Gateway with the host's network (`docker run --network host`) and OPENCLAW_DISABLE_BONJOUR=0 in its "
                + "environment, or use wide-area discovery (`clawnet zone generate --this-host`)"
        case .advertiserStopped(let stop): return stop.fix
        }
    }
}
