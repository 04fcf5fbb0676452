import Avahi
import DNSSD
import Host

/// The checks of the machine: configuration, D-Bus and Avahi, interfaces, UDP 5353,
/// nss-mdns, the resolver and each wide-area domain, Tailscale. `multicast` false (--no-local):
/// mDNS is not checked.
package enum MachineChecks {
    package static func run(_ facts: MachineFacts, discovery: DiscoverySummary, multicast: Bool = true) -> [Check] {
        Layer.checks(Layer.machine, delivered: facts.delivered) { layer in
            switch layer.id {
            case .openclawConfig: [service(loopback(config(facts.config), facts), facts)]
            case .openclawAdvertising: [advertising(facts)]
            case .mdnsBrowse: [browse(facts, discovery)]
            case .dnsResolver: [resolver(facts)]
            case .dnsWideArea: wideArea(facts, discovery)
            case .tailscaleInterface: [tailscale(facts, discovery)]
            case .openclawIdentity: [identity(facts)]
            case .discoveryGateways: [gatewaysSeen(discovery)]
            case .discoveryPhones: [phones(discovery)]
            case let id where !multicast: [Check(id, .skip, .localNotBrowsed)]
            case .mdnsDBus: [dbus(facts)]
            case .mdnsDaemon: [daemon(facts)]
            case .mdnsInterfaces: [interfaces(facts)]
            case .mdnsPort5353: [port5353(facts)]
            default: [nss(facts)]
            }
        }
    }

    static func config(_ config: OpenClawConfig) -> Check {
        let asNode = config.exists && config.warnings.isEmpty && config.node.isRemote
        let evidence = CheckEvidence.config(ConfigEvidence(config: config, asNode: asNode))
        if asNode {
            return config.node.remoteURL == nil
                ? Check(.openclawConfig, .warn, .remoteURLMissing, evidence: evidence)
                : Check(.openclawConfig, .pass, .ok, evidence: evidence)
        }
        // A config that is there but cannot be read is not a missing one: say why, defaults apply.
        if !config.exists, !config.warnings.isEmpty { return Check(.openclawConfig, .warn, .configUnreadable, evidence: evidence) }
        guard config.exists else { return Check(.openclawConfig, .skip, .configMissing, evidence: evidence) }
        if !config.warnings.isEmpty { return Check(.openclawConfig, .warn, .configInvalid, evidence: evidence) }
        if config.bind?.aliasReplacement != nil { return Check(.openclawConfig, .fail, .bindHostAlias, evidence: evidence) }
        if (config.bind ?? .loopback) == .loopback { return Check(.openclawConfig, .warn, .bindLoopback, evidence: evidence) }
        return Check(.openclawConfig, .pass, .ok, evidence: evidence)
    }

    /// On a Gateway host: the switches that decide whether its Gateway advertises by mDNS.
    static func advertising(_ facts: MachineFacts) -> Check {
        let evidence = AdvertisingEvidence(
            isNode: facts.isNode, settings: facts.config.advertising, container: facts.platform.container, wsl2: facts.platform.wsl2,
            off: facts.advertisingOff, configPath: facts.config.path)
        let (status, reason): (Check.Status, CheckReason)
        if !facts.isGatewayHost {
            (status, reason) = (.skip, .notGatewayHost)
        } else if evidence.off != nil {
            (status, reason) = (.warn, .advertisingOff)
        } else if evidence.wsl2 {
            (status, reason) = (.warn, .advertisingInWSL)
        } else {
            (status, reason) = (.pass, .ok)
        }
        return Check(.openclawAdvertising, status, reason, evidence: .advertising(evidence))
    }

    static func dbus(_ facts: MachineFacts) -> Check {
        let evidence = CheckEvidence.bus(facts.busAddress, daemonInstalled: facts.avahiInstalled)
        return facts.busSocketExists == false
            ? Check(.mdnsDBus, .fail, .busMissing, evidence: evidence) : Check(.mdnsDBus, .pass, .ok, evidence: evidence)
    }

    static func daemon(_ facts: MachineFacts) -> Check {
        if facts.avahiRunning { return Check(.mdnsDaemon, .pass, .ok, evidence: .daemon(facts.avahi)) }
        return Check(.mdnsDaemon, .fail, facts.avahiInstalled ? .daemonUnavailable : .daemonNotInstalled, evidence: .daemon(facts.avahi))
    }

    static func interfaces(_ facts: MachineFacts) -> Check {
        let evidence = InterfaceEvidence(
            usable: facts.multicastInterfaces, up: facts.interfaces.filter { $0.isUp && !$0.isLoopback }.map(\.name))
        return evidence.usable.isEmpty
            ? Check(.mdnsInterfaces, .fail, .noMulticastInterface, evidence: .interfaces(evidence))
            : Check(.mdnsInterfaces, .pass, .ok, evidence: .interfaces(evidence))
    }

    static func port5353(_ facts: MachineFacts) -> Check {
        let evidence = PortEvidence(holders: facts.port5353, others: facts.port5353.holders.filter { $0.name != "avahi-daemon" })
        return evidence.others.isEmpty
            ? Check(.mdnsPort5353, .pass, .ok, evidence: .port5353(evidence))
            : Check(.mdnsPort5353, .warn, .otherResponders, evidence: .port5353(evidence))
    }

    static func nss(_ facts: MachineFacts) -> Check {
        let evidence = CheckEvidence.nss(NSSEvidence(hosts: facts.nsswitchHosts, missing: facts.missingMDNSLibraries))
        guard let hosts = facts.nsswitchHosts else { return Check(.mdnsNSS, .warn, .nsswitchMissing, evidence: evidence) }
        guard hosts.asksMulticastDNS else { return Check(.mdnsNSS, .warn, .nssMdnsMissing, evidence: evidence) }
        guard facts.missingMDNSLibraries.isEmpty else { return Check(.mdnsNSS, .warn, .nssModuleMissing, evidence: evidence) }
        return Check(.mdnsNSS, .pass, .ok, evidence: evidence)
    }
}
