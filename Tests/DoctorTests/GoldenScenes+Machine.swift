import Avahi
import DNSSD
import Discovery
import Foundation
import TestSupport

@testable import Doctor
@testable import Host
@testable import Probes

/// Scenes of the machine: its mDNS stack, resolver, wide-area domains, config and role.
extension GoldenScene {
    static let host = IPAddress("192.168.1.30")!

    static let noBus = GoldenScene("machine-no-bus") { scene in
        scene.system.busExists = false
        scene.system.avahiStatus = .unavailable(DiscoveryIssue.noBus)
        scene.gateways = [Gateway(Golden.report(), beacon: Recorded.beacon(source: .manual))]
    }

    static let noDaemon = GoldenScene("machine-no-daemon") { scene in
        scene.system.avahiStatus = .unavailable(DiscoveryIssue.noDaemon)
        scene.system.resolv = ResolvConf(path: "/etc/resolv.conf", text: nil)
        scene.system.hostsLine = "hosts: files dns"
    }

    static let quietLAN = GoldenScene("machine-quiet-lan") { scene in
        scene.system.resolv = ResolvConf(path: "/etc/resolv.conf", text: "nameserver not-an-address\nnameserver 192.168.1.1\n")
        scene.system.hostsLine = "hosts: files mdns4_minimal dns"
        scene.system.mdnsModules = []
        scene.system.holders = PortHolders(sockets: 3, holders: [])
    }

    static let hostAnswers = GoldenScene("machine-host-answers") { scene in
        var beacon = Recorded.beacon(source: .unicast)
        beacon.resolvers = ["127.0.0.1#5300", "10.0.0.53#53"]
        scene.discovery = Recorded.discovery(domains: [Recorded.domain], beacons: [beacon])
        scene.discovery.hostAnswers = [
            HostAnswer(address: host, gateway: "wss://studio.openclaw.internal:18789", answer: .name("studio.local"))
        ]
        scene.system.resolved = true
        scene.gateways = [Gateway(Golden.report(), beacon: beacon)]
    }

    static let hostSilent = GoldenScene("machine-host-silent") { scene in
        scene.discovery = Recorded.discovery(domains: [Recorded.domain], beacons: [Recorded.beacon(source: .unicast)])
        scene.discovery.hostAnswers = [
            HostAnswer(address: host, gateway: "wss://studio.openclaw.internal:18789", answer: .noAnswer),
            HostAnswer(address: IPAddress("fd00::30")!, gateway: "wss://studio.openclaw.internal:18789", answer: .noAnswer),
        ]
    }

    static let oddMachine = GoldenScene("machine-odd") { scene in
        scene.system.networkInterfaces = [
            NetworkInterface(name: "lo", addresses: [IPAddress("127.0.0.1")!], isUp: true, isLoopback: true, supportsMulticast: false),
            NetworkInterface(name: "wg0", addresses: [IPAddress("10.9.0.2")!], isUp: true, isLoopback: false, supportsMulticast: false),
        ]
        scene.system.hostsLine = nil
        scene.system.holders = PortHolders(sockets: 3, holders: [.init(pid: 410, name: "avahi-daemon"), .init(pid: 977, name: "mdnsd")])
        scene.system.openclaw.exists = true
        scene.system.openclaw.warnings = ["/home/op/.openclaw/openclaw.json: not valid JSON5 (line 3)"]
        scene.discovery = Recorded.discovery(beacons: [Recorded.beacon()])
    }

    static let noInterfaceUp = GoldenScene("machine-no-interface") { scene in
        scene.system.networkInterfaces = [
            NetworkInterface(name: "lo", addresses: [IPAddress("127.0.0.1")!], isUp: true, isLoopback: true, supportsMulticast: false)
        ]
        scene.system.holders = PortHolders(sockets: 0, holders: [])
        scene.system.openclaw.exists = false
        scene.system.openclaw.warnings = ["/home/op/.openclaw/openclaw.json: permission denied"]
    }

    static let advertisingOff = GoldenScene("machine-advertising-off") { scene in
        scene.system.openclaw.exists = true
        scene.system.openclaw.advertising.mdnsMode = .off
        scene.system.openclaw.advertising.disableBonjour = "0"
    }

    static let container = GoldenScene("machine-container") { scene in
        scene.system.openclaw.exists = true
        scene.system.openclaw.bind = .loopback
        scene.system.platformFacts.container = "/.dockerenv"
        scene.discovery = Recorded.discovery(beacons: [Recorded.beacon()])
    }

    static let wsl = GoldenScene("machine-wsl") { scene in
        scene.system.openclaw.exists = true
        scene.system.openclaw.bind = .lan
        scene.system.openclaw.gatewayPort = 18790
        scene.system.openclaw.tlsEnabled = true
        scene.system.openclaw.advertising.mdnsMode = .full
        scene.system.openclaw.advertising.mdnsHostname = "studio"
        scene.system.platformFacts.wsl2 = true
    }

    static let node = GoldenScene("machine-node") { scene in
        scene.system.openclaw.exists = true
        scene.system.openclaw.node.mode = .remote
        scene.system.openclaw.node.remoteURL = try? EndpointSpec(parsing: "wss://studio.openclaw.internal:18789")
        scene.system.openclaw.node.remoteTransport = .ssh
        scene.system.openclaw.node.sshTarget = "op@studio"
        scene.system.openclaw.node.remoteTLSFingerprint = Recorded.certificateSHA
        scene.system.openclaw.node.remoteToken = Golden.token
        scene.system.networkInterfaces = Golden.onTailnet.networkInterfaces
        scene.discovery = Recorded.discovery(local: false, domains: [Recorded.domain])
        scene.explicitTargets = true
        let target = Golden.target(
            "wss://studio.openclaw.internal:18789", host: "studio.openclaw.internal", addresses: ["100.101.102.7"])
        scene.gateways = [Gateway(Golden.report(target), pin: Recorded.certificateSHA, pinFromConfig: true)]
    }

    static let nodeWithoutURL = GoldenScene("machine-node-without-url") { scene in
        scene.system.openclaw.exists = true
        scene.system.openclaw.node.mode = .remote
        scene.system.openclaw.node.unresolvedToken = "a token from a file SecretRef (not read)"
        scene.multicast = false
        scene.discovery = Recorded.discovery(local: false)
    }

    static let wideArea = GoldenScene("machine-wide-area") { scene in
        let split = DiscoveryIssue(
            source: .unicast, kind: .splitDNS, .splitDNS(tailscale: "100.100.100.100", system: ["192.168.1.1#53"]),
            domain: "openclaw.internal.")
        let other = try! DomainName(validating: "gw.example.org")
        let nx = DiscoveryIssue(
            source: .unicast, kind: .dnsError,
            .ptrUnanswered(
                service: "_openclaw-gw._tcp.gw.example.org.", type: "_openclaw-gw._tcp", explanation: "NXDOMAIN from 192.168.1.1#53",
                answer: .noSuchDomain(server: "192.168.1.1#53", dig: "@192.168.1.1")),
            domain: "gw.example.org.")
        let empty = try! DomainName(validating: "empty.example.org")
        scene.discovery = Recorded.discovery(local: false, domains: [Recorded.domain, other, empty], issues: [split, nx])
        scene.multicast = false
    }

    static let localFallback = GoldenScene("local-fallback") { scene in
        scene.discovery = Recorded.discovery(beacons: [Recorded.beacon()])
        let here = Golden.target("127.0.0.1:18789", host: "127.0.0.1", addresses: ["127.0.0.1"], tls: false)
        scene.gateways = [
            Gateway(Golden.report(), beacon: Recorded.beacon()), Gateway(Golden.tcp(here, [.refused]), isLocalFallback: true),
        ]
    }

    static let localFallbackConfigured = GoldenScene("local-fallback-configured") { scene in
        scene.system = Golden.gatewayHost
        scene.discovery = Recorded.discovery(beacons: [Recorded.beacon()])
        let here = Golden.target("127.0.0.1:18789", host: "127.0.0.1", addresses: ["127.0.0.1"], tls: false)
        scene.gateways = [Gateway(Golden.tcp(here, [.refused]), isLocalFallback: true)]
    }

    /// A Gateway host whose config does not say TLS; its Gateway on 127.0.0.1 speaks it.
    static let localFallbackTLS = GoldenScene("local-fallback-tls") { scene in
        scene.system = Golden.gatewayHost
        var gateway = Gateway(Golden.report(Golden.target("wss://127.0.0.1:18789", host: "127.0.0.1", addresses: ["127.0.0.1"])))
        gateway.isLocalFallback = true
        gateway.foundTLS = true
        scene.gateways = [gateway]
    }

    static let explicitTargets = GoldenScene("explicit-targets") { scene in
        scene.system.avahiStatus = .unavailable(DiscoveryIssue.noDaemon)
        scene.discovery = Recorded.discovery(domains: [Recorded.domain])
        scene.explicitTargets = true
        scene.gateways = [Gateway(Golden.report(Golden.target("wss://10.0.0.9:18789", host: "10.0.0.9", addresses: ["10.0.0.9"])))]
    }

    static let onlyTLS = GoldenScene("check-gw-tls") { scene in
        scene.only = ["gw.tls"]
        scene.gateways = [
            Gateway(Golden.report { $0.tls = PhaseTiming(outcome: .alert(TLSAlert(code: 70)), elapsed: .zero) }, beacon: lanBeacon)
        ]
    }

    static let snippets = GoldenScene("snippets") { scene in
        var published = Recorded.beacon(source: .unicast, address: "192.168.1.30", port: 18790)
        published.resolvers = ["10.0.0.53#53"]
        published.instance = try! InstanceName(decoded: "Den (OpenClaw)")
        scene.discovery = Recorded.discovery(domains: [Recorded.domain], beacons: [lanBeacon, published])
        let den = Golden.target("wss://den.local:18789", host: "den.local", addresses: ["192.168.1.30"])
        let denBeacon = Recorded.beacon("Den (OpenClaw)", txt: [("role", "gateway"), ("gatewayTls", "1")])
        scene.gateways = [Gateway(Golden.report(), beacon: lanBeacon), Gateway(Golden.report(den), beacon: denBeacon)]
    }

    static let all: [GoldenScene] = [
        healthy, names, tcp, tailnet, offTailnet, tls, pinAndCertificate, upperLayers, answers, credentials, noBus, noDaemon, quietLAN,
        hostAnswers, hostSilent, oddMachine, noInterfaceUp, advertisingOff, container, wsl, node, nodeWithoutURL, wideArea, localFallback,
        localFallbackConfigured, localFallbackTLS, explicitTargets, onlyTLS, snippets, trojanNames,
    ]
}
