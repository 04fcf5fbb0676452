import DNSSD
import Discovery
import Doctor
import Host
import Probes

/// What a watch reads from this machine, at the start and again on SIGHUP: the discovery
/// request (the node's configured Gateway added as a manual target), the machine as doctor's
/// rules need it, and the pin this node keeps for its Gateway.
package struct WatchSetup: Sendable {
    package var request: DiscoveryRequest
    package let machine: MachineResult
    /// The causes doctor's rules find in `machine` alone (every probe's verdict keeps those
    /// that name its Gateway).
    package let machineCauses: [Diagnosis]
    /// The node's configured Gateway (gateway.remote.url) and its pin, when it has one.
    package var pinned: (endpoint: Endpoint, pin: Pin)?

    package init(request: DiscoveryRequest, machine: MachineResult, pinned: (endpoint: Endpoint, pin: Pin)? = nil) {
        self.request = request
        self.machine = machine
        machineCauses = DiagnosisRules.diagnose(machine)
        self.pinned = pinned
    }

    /// The setup from `options` and the machine `system` shows: its config's domain and its
    /// node's Gateway join the paths.
    package static func read(_ options: DiscoveryOptions, system: any SystemInspector) -> WatchSetup {
        let facts = MachineFacts.gather(system)
        var request = DiscoveryRequest(options, config: facts.config, interfaces: facts.interfaces)
        var pinned: (endpoint: Endpoint, pin: Pin)?
        if facts.config.node.isRemote, let url = facts.config.node.remoteURL {
            let endpoint = url.endpoint(defaultPort: Endpoint.defaultGatewayPort)
            if !request.manual.contains(endpoint) { request.manual.append(endpoint) }
            pinned = facts.config.node.remoteTLSFingerprint.map { (endpoint, Pin($0, source: .remoteConfig)) }
        }
        let discovery = DiscoverySummary(localBrowsed: request.local, domains: request.domains, beacons: [], issues: [])
        return WatchSetup(request: request, machine: MachineResult(checks: [], facts: facts, discovery: discovery), pinned: pinned)
    }

    /// What could not be read of the OpenClaw config (as browse reports it): said at the start
    /// and at each reread.
    package var configIssues: [DiscoveryIssue] {
        machine.facts.config.warnings.map { DiscoveryIssue(source: .config, kind: .config, .config(warning: $0)) }
    }

    /// True when `other` discovers on the same paths (types, local., domains and their servers,
    /// manual targets): a reread config that changed only a pin keeps discovery running, so
    /// that its Gateways do not disappear and appear again.
    func discoversTheSame(as other: WatchSetup) -> Bool {
        let (mine, theirs) = (request, other.request)
        return mine.types == theirs.types && mine.local == theirs.local && mine.domains == theirs.domains
            && mine.unicast.servers == theirs.unicast.servers && mine.unicast.tailscaleResolver == theirs.unicast.tailscaleResolver
            && mine.manual == theirs.manual && mine.manualTLS == theirs.manualTLS
    }

    /// True when `issue` means nothing can be discovered at all: mDNS is the only path and
    /// there is no D-Bus or no avahi-daemon (as browse, which exits 3 then).
    func cannotDiscover(because issue: DiscoveryIssue) -> Bool {
        request.local && request.domains.isEmpty && request.manual.isEmpty && issue.source == .mdns
            && [.busMissing, .daemonMissing].contains(issue.kind)
    }

    /// The pin that applies to a Gateway probed as `target`: the node's, on its Gateway's
    /// host (or one of its addresses) and port.
    func pin(for target: ProbeTarget) -> Pin? {
        guard let pinned, pinned.endpoint.port == target.port else { return nil }
        let endpoint = pinned.endpoint
        let sameName = endpoint.hostName.map { $0 == target.hostName } ?? (endpoint.host == target.host)
        let matches = sameName || target.addresses.contains { "\($0)" == endpoint.host }
        return matches ? pinned.pin : nil
    }
}
