import DNSSD

/// The switches in OpenClaw's config and environment that decide whether a Gateway advertises
/// `_openclaw-gw._tcp` by mDNS: `discovery.mdns.mode` (src/gateway/server-discovery-runtime.ts:
/// off, minimal (default), full), the bonjour plugin (extensions/bonjour, enabled by default;
/// `plugins.enabled`, `plugins.deny`, `plugins.allow`, `plugins.entries.bonjour.enabled` as
/// src/plugins/config-state.ts decides), and the advertiser's environment
/// (extensions/bonjour/src/advertiser.ts: OPENCLAW_DISABLE_BONJOUR, OPENCLAW_MDNS_HOSTNAME).
/// Containers and WSL2 are facts of the machine, not of the config (Doctor's AdvertisingFacts).
package struct AdvertisingSettings: Sendable, Equatable {
    package static let pluginID = "bonjour"

    /// `discovery.mdns.mode`: off, minimal or full.
    package var mdnsMode: MDNSMode?
    /// `plugins.enabled`.
    package var pluginsEnabled: Bool?
    /// `plugins.allow` and `plugins.deny`: plugin ids.
    package var pluginsAllow: [String]?
    package var pluginsDeny: [String]?
    /// `plugins.entries.bonjour.enabled`.
    package var bonjourEntryEnabled: Bool?
    /// OPENCLAW_DISABLE_BONJOUR as set in this environment.
    package var disableBonjour: String?
    /// OPENCLAW_MDNS_HOSTNAME as set in this environment.
    package var mdnsHostname: String?

    package init() {}

    /// The advertiser's reading of OPENCLAW_DISABLE_BONJOUR: true (disabled), false (forced on,
    /// even in a container), nil (unset, empty or another word: the other rules decide).
    /// extensions/bonjour/src/advertiser.ts readBonjourDisableOverride reads it with
    /// isTruthyEnvValue, src/utils/boolean.ts parseBooleanValue: trimmed as JavaScript trims,
    /// lowercased, 1/true/yes/on or 0/false/no/off.
    package var disableBonjourOverride: Bool? {
        guard let raw = disableBonjour.map(Self.javaScriptTrimmed)?.lowercased(), !raw.isEmpty else { return nil }
        switch raw {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: return nil
        }
    }

    /// `text` without what String.prototype.trim removes at either end: the spaces (category
    /// Zs, tab, vertical tab, form feed, U+FEFF) and the line terminators (LF, CR, U+2028/2029).
    static func javaScriptTrimmed(_ text: String) -> String {
        let trimmed: (Unicode.Scalar) -> Bool = { scalar in
            [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0xFEFF, 0x2028, 0x2029].contains(scalar.value)
                || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }), let last = scalars.lastIndex(where: { !trimmed($0) }) else {
            return ""
        }
        return String(scalars[first...last])
    }
}

extension OpenClawConfig {
    mutating func readAdvertising(_ root: JSONValue) {
        if let value = root["discovery", "mdns", "mode"] {
            if case .string(let word) = value, case let mode = MDNSMode(word: word), mode.unknownWord == nil {
                advertising.mdnsMode = mode
            } else {
                warnings.append("\(path): discovery.mdns.mode should be \"off\", \"minimal\" or \"full\"")
            }
        }
        if let value = root["plugins", "enabled"] {
            if case .bool(let flag) = value {
                advertising.pluginsEnabled = flag
            } else {
                warnings.append("\(path): plugins.enabled should be true or false")
            }
        }
        advertising.pluginsAllow = readIDs(root["plugins", "allow"], field: "plugins.allow")
        advertising.pluginsDeny = readIDs(root["plugins", "deny"], field: "plugins.deny")
        if let value = root["plugins", "entries", AdvertisingSettings.pluginID, "enabled"] {
            if case .bool(let flag) = value {
                advertising.bonjourEntryEnabled = flag
            } else {
                warnings.append("\(path): plugins.entries.bonjour.enabled should be true or false")
            }
        }
    }

    private mutating func readIDs(_ value: JSONValue?, field: String) -> [String]? {
        guard let value else { return nil }
        if case .array(let items) = value {
            let ids = items.compactMap { item -> String? in
                if case .string(let id) = item { return id }
                return nil
            }
            if ids.count == items.count { return ids }
        }
        warnings.append("\(path): \(field) should be a list of plugin ids in quotes")
        return nil
    }
}
