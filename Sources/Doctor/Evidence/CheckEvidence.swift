import Avahi
import DNSSD
import Host
import Probes

/// What a check was judged from: the facts of its one layer, typed. A skip for want of a layer
/// below carries none; its reason says it all.
package enum CheckEvidence: Sendable, Equatable {
    case none
    // This machine
    case config(ConfigEvidence)
    case advertising(AdvertisingEvidence)
    /// The system bus's address, and whether avahi-daemon is installed (its package brings the
    /// bus along, so a fix installs it before starting either).
    case bus(String, daemonInstalled: Bool)
    case daemon(AvahiStatus)
    case interfaces(InterfaceEvidence)
    case port5353(PortEvidence)
    case nss(NSSEvidence)
    case browse(BrowseEvidence)
    case resolver(ResolverEvidence)
    case wideArea(WideAreaEvidence)
    case tailnet(TailnetEvidence)
    case identity(IdentityEvidence)
    case gateways(GatewaysEvidence)
    case phones(PhonesEvidence)
    // Each Gateway
    case dns(DNSEvidence)
    case tcp(TCPEvidence)
    case tls(TLSEvidence)
    case pin(PinEvidence)
    case certificate(TLSFacts)
    case http(HTTPEvidence)
    /// gw.websocket and gw.protocol.
    case webSocket(WebSocketEvidence)
    /// `answer` is the Gateway's answer as judged before what happened to the credentials.
    case connect(ConnectEvidence, answer: CheckReason)
}

/// openclaw.config: the config, read as a node's or as a Gateway host's.
package struct ConfigEvidence: Sendable, Equatable {
    package let config: OpenClawConfig
    /// Read as a node's (gateway.mode remote, and the file is sound).
    package let asNode: Bool
    /// On a Gateway host: its systemd unit and recent journal, when systemd could be asked.
    package var service: GatewayService? = nil
}

/// openclaw.advertising: the settings that decide whether this machine's Gateway advertises.
package struct AdvertisingEvidence: Sendable, Equatable {
    /// Not a Gateway host because it is a node (else: no config).
    package let isNode: Bool
    package let settings: AdvertisingSettings
    package let container: String?
    package let wsl2: Bool
    /// The switch that is off, when one is.
    package let off: AdvertisingSwitch?
    package let configPath: String
}

/// mdns.interfaces: where multicast can go, and what else is up.
package struct InterfaceEvidence: Sendable, Equatable {
    package let usable: [NetworkInterface]
    /// Interfaces that are up, besides loopback.
    package let up: [String]
}

/// mdns.port5353: who holds UDP 5353, and who besides avahi-daemon.
package struct PortEvidence: Sendable, Equatable {
    package let holders: PortHolders
    package let others: [PortHolders.Holder]
}

/// mdns.nss: the hosts line, and the libraries of the modules it asks that are missing.
package struct NSSEvidence: Sendable, Equatable {
    package let hosts: NSSwitchHosts?
    package let missing: [String]
}

/// mdns.browse: the Gateways in local., or which hosts answered mDNS when none did.
package struct BrowseEvidence: Sendable, Equatable {
    package let found: [GatewayBeacon]
    /// A Gateway's host that answered with a name.
    package let answered: HostAnswer?
    /// Gateways' hosts that did not answer.
    package let silent: [HostAnswer]
}

package struct ResolverEvidence: Sendable, Equatable {
    package let conf: ResolvConf
    package let systemdResolved: Bool
    /// systemd-resolved's links, when it could be asked.
    package var resolved: ResolvedStatus? = nil
}

/// dns.widearea: one domain, what it gave and what went wrong.
package struct WideAreaEvidence: Sendable, Equatable {
    package let domain: DomainName
    package let found: [GatewayBeacon]
    /// The discovery issue that decided the check.
    package let issue: DiscoveryIssue?
}

/// tailscale.interface: this machine's tailnet addresses and the interfaces that hold them.
package struct TailnetEvidence: Sendable, Equatable {
    package let addresses: [IPAddress]
    package let interfaces: [String]
    /// A wide-area domain is configured.
    package let wideArea: Bool
    /// gateway.tailscale.* of this machine's Gateway, and what Serve proxies (when asked).
    package var settings = TailscaleSettings()
    package var serve: TailscaleServeStatus? = nil
    /// The port the Gateway listens on behind Serve (gateway.port, default 18789).
    package var gatewayPort = Endpoint.defaultGatewayPort
}
