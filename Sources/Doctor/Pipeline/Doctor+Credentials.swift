import DNSSD
import Host
import Probes

/// What each Gateway may be shown, and the rule the probe applies before it shows it.
extension Doctor {
    /// What a named Gateway is shown: --token-file and --as-device; the config's token only
    /// where it belongs (gateway.remote.url on a node, this machine's own Gateway on its host).
    func credentials(for endpoint: Endpoint) -> ConnectCredentials {
        let config = facts.config
        let own =
            Self.isRemoteURL(endpoint, config)
            || (!config.node.isRemote && (endpoint.address?.isLoopback ?? (HostNameKind(endpoint.host) == .localhost)))
        return ConnectCredentials(token: options.token ?? (own ? config.node.token : nil), device: options.device)
    }

    /// The endpoint is the Gateway this node's config names.
    static func isRemoteURL(_ endpoint: Endpoint, _ config: OpenClawConfig) -> Bool {
        guard config.node.isRemote, let url = config.node.remoteURL else { return false }
        let remote = url.endpoint(defaultPort: Endpoint.defaultGatewayPort)
        return remote.host == endpoint.host && remote.port == endpoint.port
    }

    /// The target with the rule its credentials go by: its pin, the trust roots, plain ws://.
    func guarded(_ target: Target) -> Target {
        var target = target
        target.probe.policy = CredentialPolicy(
            pin: target.pin?.fingerprint, trustRoots: options.trustRoots, allowPrivatePlainText: options.allowPrivatePlainText)
        return target
    }
}
