import Avahi
import DNSSD
import Host

/// The causes found on this machine: its mDNS stack, why nothing answers in local., and its
/// wide-area domains.
extension DiagnosisRules {
    package static let machine: [DiagnosisRule] =
        [
            noMDNS, gatewayNotAdvertising, multicastBlockedSilentHost, mdnsTimeout, multicastBlocked, twoMDNSStacks, advertisingSwitchedOff,
            noMulticastInterface, resolvedRoutingDomain, splitDNS, wideAreaDomain, tailscaleServeRoute, gatewayRestartLoop,
            containerMulticast, gatewayBindAlias,
        ] + identity + sightings + phones

    static let noMDNS = DiagnosisRule.machine(
        .noMDNS, explains: [.mdnsDBus: [.busMissing], .mdnsDaemon: [.daemonUnavailable, .daemonNotInstalled]]
    ) { machine in
        guard machine.mdnsFailed else { return [] }
        let busMissing = machine.check(.mdnsDBus)?.status == .fail
        let failing = machine.check(busMissing ? .mdnsDBus : .mdnsDaemon)
        let finding = Diagnosis.Finding.noMDNS(busMissing: busMissing, daemonInstalled: machine.facts.avahiInstalled, failing: failing)
        return [Diagnosis(.noMDNS, finding, evidence: [.init(.mdnsDBus), .init(.mdnsDaemon)])]
    }

    /// Nothing in local., and the host of a Gateway found another way answers mDNS from here.
    static let gatewayNotAdvertising = DiagnosisRule.machine(.gatewayNotAdvertising) { machine in
        guard machine.localUnexplained, let host = machine.discovery.hostAnswers.first(where: { $0.name != nil }) else { return [] }
        return [Diagnosis(.gatewayNotAdvertising, .hostAnswer(host), evidence: [.init(.mdnsBrowse)])]
    }

    /// Nothing in local., and the host of a Gateway found another way is silent on mDNS too.
    static let multicastBlockedSilentHost = DiagnosisRule.machine(.multicastBlocked) { machine in
        let answers = machine.discovery.hostAnswers
        guard machine.localUnexplained, !answers.contains(where: { $0.name != nil }),
            let host = answers.first(where: { $0.answer == .noAnswer })
        else { return [] }
        return [Diagnosis(.multicastBlocked, .hostAnswer(host), evidence: [.init(.mdnsBrowse)])]
    }

    /// Nothing in local., no host to ask, and the `.local` name of the Gateway this machine is
    /// to reach got no mDNS answer either: mDNS times out between the two (a configured node's
    /// gateway.remote.url, a TARGET).
    static let mdnsTimeout = DiagnosisRule.machine(.mdnsTimeout) { machine in
        guard machine.localUnexplained, !machine.hostAsked, !machine.discovery.unansweredLocalNames.isEmpty else { return [] }
        return [
            Diagnosis(.mdnsTimeout, .mdnsTimeout(names: machine.discovery.unansweredLocalNames), evidence: [.init(.mdnsBrowse)])
        ]
    }

    /// Nothing in local., and no host to ask.
    static let multicastBlocked = DiagnosisRule.machine(.multicastBlocked) { machine in
        guard machine.localUnexplained, !machine.hostAsked, machine.discovery.unansweredLocalNames.isEmpty else { return [] }
        return [
            Diagnosis(
                .multicastBlocked, .multicastBlocked(interfaces: machine.facts.multicastInterfaces.map(\.name)),
                evidence: [.init(.mdnsDaemon), .init(.mdnsInterfaces), .init(.mdnsBrowse)])
        ]
    }

    /// On a Gateway host: a switch keeps this Gateway from advertising, and its beacon is not in local.
    static let advertisingSwitchedOff = DiagnosisRule.machine(.gatewayNotAdvertising) { machine in
        guard let off = machine.facts.advertisingOff, !machine.ownBeaconSeen else { return [] }
        return [
            Diagnosis(
                .gatewayNotAdvertising, .advertisingOff(off, configPath: machine.facts.config.path),
                evidence: [.init(.openclawAdvertising), .init(.mdnsBrowse)])
        ]
    }

    static let noMulticastInterface = DiagnosisRule.machine(.noMulticastInterface, explains: [.mdnsInterfaces: [.noMulticastInterface]]) {
        machine in
        machine.failing(.mdnsInterfaces, .noMulticastInterface).map {
            Diagnosis(.noMulticastInterface, .check($0, target: nil), evidence: [.init(.mdnsInterfaces)])
        }
    }

    static let twoMDNSStacks = DiagnosisRule.machine(.twoMDNSStacks) { machine in
        machine.checks.filter { $0.id == .mdnsPort5353 && $0.reason == .otherResponders }.prefix(1).map {
            Diagnosis(.twoMDNSStacks, .check($0, target: nil), evidence: [.init(.mdnsPort5353)])
        }
    }

    /// One per wide-area domain that answers only at Tailscale's resolver.
    static let splitDNS = DiagnosisRule.machine(.splitDNS, explains: [.dnsWideArea: [.splitDNS]]) { machine in
        guard machine.facts.resolved == nil else { return [] }  // resolvedRoutingDomain names the link
        return machine.failing(.dnsWideArea, .splitDNS).map {
            Diagnosis(.splitDNS, .check($0, target: nil), evidence: [.init(.dnsWideArea), .init(.tailscaleInterface)])
        }
    }

    /// One per wide-area domain whose DNS answers with an error (NXDOMAIN, REFUSED, silence).
    static let wideAreaDomain = DiagnosisRule.machine(.wideAreaDomain, explains: [.dnsWideArea: [.domainError]]) { machine in
        machine.failing(.dnsWideArea, .domainError).map {
            Diagnosis(.wideAreaDomain, .check($0, target: nil), evidence: [.init(.dnsWideArea)])
        }
    }
}

extension MachineResult {
    /// Every check `id` that failed for `reason` (a layer may have several, one per domain).
    func failing(_ id: CheckID, _ reason: CheckReason) -> [Check] {
        checks.filter { $0.id == id && $0.status == .fail && $0.reason == reason }
    }

    /// The D-Bus system bus or avahi-daemon failed: this machine has no mDNS.
    var mdnsFailed: Bool { [CheckID.mdnsDBus, .mdnsDaemon].contains { check($0)?.status == .fail } }

    /// Nothing answered in local. though mDNS could be asked, and nothing said already why: no
    /// mDNS, no interface that carries multicast, this machine's own Gateway not advertising.
    /// A Gateway's host was asked whether it answers mDNS, and answered or stayed silent.
    var hostAsked: Bool { discovery.hostAnswers.contains { $0.name != nil || $0.answer == .noAnswer } }

    var localUnexplained: Bool {
        discovery.localIsEmptyThoughUsable(facts) && !mdnsFailed && !facts.multicastInterfaces.isEmpty && facts.advertisingOff == nil
            && !facts.onContainerBridge
    }

    /// A beacon in local. at one of this machine's own addresses: its Gateway advertises.
    var ownBeaconSeen: Bool {
        let own = Set(facts.interfaces.flatMap(\.addresses).map(\.withoutZone))
        return discovery.localBeacons.contains { beacon in beacon.addresses.contains { own.contains($0.withoutZone) } }
    }
}
