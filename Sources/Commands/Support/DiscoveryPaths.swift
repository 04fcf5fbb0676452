import ArgumentParser
import DNSSD
import Discovery
import Host

/// What browse, doctor, preflight and watch say when the paths they were given add up to
/// nothing: the same mistake in the same words, a usage error (exit 2) that names the flags.
enum DiscoveryPaths {
    /// The paths as flags, the config and the environment make them (OPENCLAW_WIDE_AREA_DOMAIN
    /// is read into the config), and whether a Gateway is named.
    struct Given {
        let request: DiscoveryRequest
        /// TARGETs, --manual, or (where the command checks it) the node's gateway.remote.url.
        let targets: Bool
        /// --server was given.
        let servers: Bool

        /// `nodeGateway`: the command checks the Gateway a node's config names (doctor,
        /// preflight and watch do; browse lists what discovery finds).
        init(_ options: DiscoveryOptions, config: OpenClawConfig, targets: Bool, nodeGateway: Bool = true) {
            request = DiscoveryRequest(options, config: config, interfaces: [])
            let node = nodeGateway && config.node.isRemote && config.node.remoteURL != nil
            self.targets = targets || !request.manual.isEmpty || node
            servers = !options.servers.isEmpty
        }

        /// Nothing is browsed: no mDNS (--no-local), no wide-area domain, no Gateway named.
        var isEmpty: Bool { !request.local && request.domains.isEmpty && !targets }
    }

    /// --server asks about the wide-area domains: with none, it would ask nothing.
    static func requireDomain(_ given: Given) throws {
        guard given.servers, given.request.domains.isEmpty else { return }
        throw ValidationError(
            "--server needs a wide-area domain to ask about: add --domain (or set discovery.wideArea.domain / OPENCLAW_WIDE_AREA_DOMAIN)")
    }

    /// A command that has nothing to do without a path (browse, watch) refuses to start.
    /// `domainLater`: watch rereads the config on SIGHUP, so a --server may wait for its domain.
    static func requireSomething(_ given: Given, verb: String, domainLater: Bool = false) throws {
        if !domainLater { try requireDomain(given) }
        guard given.isEmpty else { return }
        throw ValidationError("nothing to \(verb) with --no-local: give --domain (and --server if needed) or a TARGET")
    }

    /// What watch says of a --server that has no domain yet (it asks once SIGHUP brings one).
    static func serverWaits(_ given: Given) -> String? {
        guard given.servers, given.request.domains.isEmpty else { return nil }
        return "watch: --server is asked once the config names a wide-area domain (discovery.wideArea.domain; SIGHUP rereads it)"
    }

    /// A command that still checks this machine and its own port (doctor, preflight): what it
    /// checks instead, in one line; nil when a path is left.
    static func note(_ given: Given, command: String, port: Int) -> String? {
        guard given.isEmpty else { return nil }
        return "\(command): nothing to discover with --no-local: only this machine and 127.0.0.1:\(port) are checked "
            + "(give --domain or a TARGET for others)"
    }
}
