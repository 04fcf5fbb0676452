/// How a Gateway host puts its Gateway on the tailnet through Tailscale (docs/gateway/tailscale.md):
/// `gateway.tailscale.mode` serve (tailnet HTTPS on 443 in front of a loopback-bound Gateway),
/// funnel (public) or off, and `gateway.auth.allowTailscale` (Serve's identity headers count as
/// authentication).
package struct TailscaleSettings: Sendable, Equatable {
    package enum Mode: String, Sendable, Equatable {
        case serve, funnel, off
    }

    package var mode: Mode?
    package var allowTailscale: Bool?

    package init(mode: Mode? = nil, allowTailscale: Bool? = nil) {
        self.mode = mode
        self.allowTailscale = allowTailscale
    }

    /// Serve or Funnel: Tailscale answers HTTPS on 443 and proxies to the Gateway on loopback.
    package var proxies: Bool { mode == .serve || mode == .funnel }
}

extension OpenClawConfig {
    mutating func readTailscale(_ root: JSONValue) {
        if let value = root["gateway", "tailscale", "mode"] {
            if case .string(let word) = value, let mode = TailscaleSettings.Mode(rawValue: word) {
                tailscale.mode = mode
            } else {
                warnings.append("\(path): gateway.tailscale.mode should be \"serve\", \"funnel\" or \"off\"")
            }
        }
        if let value = root["gateway", "auth", "allowTailscale"] {
            if case .bool(let flag) = value {
                tailscale.allowTailscale = flag
            } else {
                warnings.append("\(path): gateway.auth.allowTailscale should be true or false")
            }
        }
    }
}
