import DNSSD

/// Where OpenClaw keeps a user's state, and so the node's device identity, for an
/// environment: OPENCLAW_STATE_DIR, else `.openclaw-<profile>` for OPENCLAW_PROFILE (but not
/// `default`), else `.openclaw`, under OPENCLAW_HOME or HOME (src/config/paths.ts
/// resolveStateDir; src/infra/device-identity.ts keeps the identity at `identity/device.json`).
package enum NodeStateDirectory {
    /// The state directory for `environment`; `home` when the environment has no HOME (a
    /// system service without User=, whose home is root's).
    package static func path(environment: [String: String], home: String? = nil) -> String? {
        if let stateDir = nonEmpty(environment["OPENCLAW_STATE_DIR"]) {
            return expandingHome(stateDir, environment: environment, home: home)
        }
        guard let base = base(environment, home) else { return nil }
        if let profile = nonEmpty(environment["OPENCLAW_PROFILE"]), profile.lowercased() != "default" {
            return "\(base)/.openclaw-\(profile)"
        }
        return "\(base)/.openclaw"
    }

    /// The device identity a node host started with `environment` reads.
    package static func identityPath(environment: [String: String], home: String? = nil) -> String? {
        path(environment: environment, home: home).map { $0 + "/identity/device.json" }
    }

    /// A path OpenClaw was given in its environment, `~/` meaning the home OpenClaw uses
    /// (src/config/paths.ts resolveUserPath); nil when that home is unknown.
    package static func expandingHome(_ path: String, environment: [String: String], home: String? = nil) -> String? {
        path.hasPrefix("~/") ? base(environment, home).map { $0 + path.dropFirst() } : path
    }

    private static func base(_ environment: [String: String], _ home: String?) -> String? {
        let base = nonEmpty(environment["OPENCLAW_HOME"]) ?? nonEmpty(environment["HOME"]) ?? home
        return base.map { $0.hasSuffix("/") && $0.count > 1 ? String($0.dropLast()) : $0 }
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value = value?.trimmingSpaces(), !value.isEmpty else { return nil }
        return value
    }
}
