import Avahi
import DNSSD
import Host
import Probes

/// What a check was judged from: the facts of its one layer, typed. A skip for want of a layer
/// below carries none; its reason says it all.
public enum CheckEvidence: Sendable, Equatable {
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
public struct ConfigEvidence: Sendable, Equatable {
    public let config: OpenClawConfig
    /// Read as a node's (gateway.mode remote, and the file is sound).
    public let asNode: Bool
    /// On a Gateway host: its systemd unit and recent journal, when systemd could be asked.
    public var service: GatewayService? = nil
}

/// openclaw.advertising: the settings that decide whether this machine's Gateway advertises.
public struct AdvertisingEvidence: Sendable, Equatable {
    /// Not a Gateway host because it is a node (else: no config).
    public let isNode: Bool
    public let settings: AdvertisingSettings
    public let container: String?
    public let wsl2: Bool
    /// The switch that is off, when one is.
    public let off: AdvertisingSwitch?
    public let configPath: String
}

/// mdns.interfaces: where multicast can go, and what else is up.
public struct InterfaceEvidence: Sendable, Equatable {
    public let usable: [NetworkInterface]
    /// Interfaces that are up, besides loopback.
    public let up: [String]
}

/// mdns.port5353: who holds UDP 5353, and who besides avahi-daemon.
public struct PortEvidence: Sendable, Equatable {
    public let holders: PortHolders
    public let others: [PortHolders.Holder]
}

/// mdns.nss: the hosts line, and the libraries of the modules it asks that are missing.
public struct NSSEvidence: Sendable, Equatable {
    public let hosts: NSSwitchHosts?
    public let missing: [String]
}

/// mdns.browse: the Gateways in local., or which hosts answered mDNS when none did.
public struct BrowseEvidence: Sendable, Equatable {
    public let found: [GatewayBeacon]
    /// A Gateway's host that answered with a name.
    public let answered: HostAnswer?
    /// Gateways' hosts that did not answer.
    public let silent: [HostAnswer]
}

public struct ResolverEvidence: Sendable, Equatable {
    public let conf: ResolvConf
    public let systemdResolved: Bool
    /// systemd-resolved's links, when it could be asked.
    public var resolved: ResolvedStatus? = nil
}

/// dns.widearea: one domain, what it gave and what went wrong.
public struct WideAreaEvidence: Sendable, Equatable {
    public let domain: DomainName
    public let found: [GatewayBeacon]
    /// The discovery issue that decided the check.
    public let issue: DiscoveryIssue?
}

/// tailscale.interface: this machine's tailnet addresses and the interfaces that hold them.
public struct TailnetEvidence: Sendable, Equatable {
    public let addresses: [IPAddress]
    public let interfaces: [String]
    /// A wide-area domain is configured.
    public let wideArea: Bool
    /// gateway.tailscale.* of this machine's Gateway, and what Serve proxies (when asked).
    public var settings = TailscaleSettings()
    public var serve: TailscaleServeStatus? = nil
    /// The port the Gateway listens on behind Serve (gateway.port, default 18789).
    public var gatewayPort = Endpoint.defaultGatewayPort
}
