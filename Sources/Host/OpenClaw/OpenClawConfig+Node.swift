import DNSSD
import Glibc

/// A node's side of the OpenClaw config: `gateway.mode = "remote"` makes this machine a node of
/// the Gateway at `gateway.remote.url`, pinned with `gateway.remote.tlsFingerprint` and
/// authenticated with `gateway.remote.token`. Field names and types follow OpenClaw's
/// src/config/types.gateway.ts (GatewayConfig, GatewayRemoteConfig; tokens are SecretInput:
/// a string or `{ source, provider, id }`).
package struct NodeSettings: Sendable, Equatable {
    /// `gateway.mode`: `local` (the default) or `remote`.
    package var mode: GatewayMode?
    /// `gateway.remote.url`, a ws:// or wss:// URL.
    package var remoteURL: EndpointSpec?
    /// `gateway.remote.transport`: `ssh` (a tunnel to the Gateway's loopback) or `direct`.
    package var remoteTransport: RemoteTransport?
    /// `gateway.remote.sshTarget` (user@host), shown when the transport is ssh.
    package var sshTarget: String?
    /// `gateway.remote.tlsFingerprint`: the pin this node keeps for the Gateway.
    package var remoteTLSFingerprint: TLSFingerprint?
    var remoteToken: GatewayToken?
    var authToken: GatewayToken?
    var environmentToken: GatewayToken?
    /// A token given as a SecretRef clawnet does not resolve (file or exec sources).
    package var unresolvedToken: String?
    var remoteTokenVariable: String?
    var authTokenVariable: String?
    /// Why the config may not steer credentials (another user wrote it, or can change it):
    /// then `token` is nil, whatever the file or the environment holds.
    package var untrustedConfig: String?

    package init() {}

    package var isRemote: Bool { mode == .remote }

    /// The token this machine's node or CLI sends, in OpenClaw's order
    /// (src/node-host/runner.ts): OPENCLAW_GATEWAY_TOKEN, then gateway.remote.token on a node
    /// or gateway.auth.token on the Gateway host; none when the config is not trusted.
    package var token: GatewayToken? {
        guard untrustedConfig == nil else { return nil }
        return environmentToken ?? (isRemote ? remoteToken : authToken)
    }

    /// The config file itself holds a token (a string, not a reference to one).
    var tokenInFile: Bool {
        (remoteToken != nil && remoteTokenVariable == nil) || (authToken != nil && authTokenVariable == nil)
    }
}

extension OpenClawConfig {
    mutating func readNode(_ root: JSONValue) {
        if let value = root["gateway", "mode"] {
            if case .string(let word) = value, case let mode = GatewayMode(word: word), mode.unknownWord == nil {
                node.mode = mode
            } else {
                warnings.append("\(path): gateway.mode should be \"local\" or \"remote\"")
            }
        }
        if let value = root["gateway", "remote", "url"] {
            if case .string(let text) = value, let spec = try? EndpointSpec(parsing: text), spec.scheme != nil {
                node.remoteURL = spec
            } else {
                warnings.append("\(path): gateway.remote.url should be a ws:// or wss:// URL in quotes")
            }
        }
        if let value = root["gateway", "remote", "transport"] {
            if case .string(let word) = value, case let transport = RemoteTransport(word: word), transport.unknownWord == nil {
                node.remoteTransport = transport
            } else {
                warnings.append("\(path): gateway.remote.transport should be \"ssh\" or \"direct\"")
            }
        }
        if case .string(let target)? = root["gateway", "remote", "sshTarget"] { node.sshTarget = target }
        if let value = root["gateway", "remote", "tlsFingerprint"] {
            if case .string(let text) = value, let pin = TLSFingerprint(normalizing: text) {
                node.remoteTLSFingerprint = pin
            } else {
                warnings.append("\(path): gateway.remote.tlsFingerprint should be a SHA-256 fingerprint (64 hex digits) in quotes")
            }
        }
        (node.remoteToken, node.remoteTokenVariable) = readToken(root["gateway", "remote", "token"], field: "gateway.remote.token")
        (node.authToken, node.authTokenVariable) = readToken(root["gateway", "auth", "token"], field: "gateway.auth.token")
    }

    /// A SecretInput: a string, or a reference; an `env` reference is resolved with the
    /// environment later, other sources are named but not read.
    private mutating func readToken(_ value: JSONValue?, field: String) -> (GatewayToken?, String?) {
        switch value {
        case nil, .null?:
            return (nil, nil)
        case .string(let text)?:
            return (GatewayToken(text, source: field), nil)
        case .object(let reference)?:
            if case .string("env")? = reference["source"], case .string(let variable)? = reference["id"] {
                return (nil, variable)
            }
            if case .string(let source)? = reference["source"] {
                node.unresolvedToken = "\(field) is a SecretRef with source \"\(source)\", which clawnet does not read"
                return (nil, nil)
            }
            warnings.append("\(path): \(field) should be a string or a SecretRef ({ source, provider, id })")
            return (nil, nil)
        default:
            warnings.append("\(path): \(field) should be a string or a SecretRef ({ source, provider, id })")
            return (nil, nil)
        }
    }

    /// What the environment adds: OPENCLAW_GATEWAY_TOKEN, `env` SecretRefs, and the
    /// advertiser's switches.
    mutating func readEnvironment(_ environment: [String: String]) {
        // A variable belongs to the user whose environment it is.
        let user = geteuid()
        node.environmentToken = environment["OPENCLAW_GATEWAY_TOKEN"].flatMap {
            GatewayToken($0, source: "OPENCLAW_GATEWAY_TOKEN", owner: user)
        }
        if let variable = node.remoteTokenVariable {
            node.remoteToken = environment[variable].flatMap {
                GatewayToken($0, source: "gateway.remote.token (env \(variable))", owner: user)
            }
        }
        if let variable = node.authTokenVariable {
            node.authToken = environment[variable].flatMap { GatewayToken($0, source: "gateway.auth.token (env \(variable))", owner: user) }
        }
        advertising.disableBonjour = environment["OPENCLAW_DISABLE_BONJOUR"]
        advertising.mdnsHostname = environment["OPENCLAW_MDNS_HOSTNAME"]
    }
}
