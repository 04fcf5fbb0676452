import DNSSD
import Host
import Probes

/// The causes found for each Gateway, in report order; first those of reaching it: its name,
/// then TCP.
extension DiagnosisRules {
    package static let gateway: [DiagnosisRule] =
        [
            nameNotFound, nssMdnsMissing, magicDNSNotApplied, unknownTarget, nameUnresolved, gatewayNotListening, nothingListens,
            localShortage, connectionReset, tailnetUnreachable, unroutableAddress, firewall, hostUnreachable,
        ] + renewals + intermediaries + upgradeAnswers + session + handshake + openClaw2 + layers

    // MARK: Its name

    /// A rule whose cause is one failure of a Gateway's layer, as that check found it.
    static func failure(
        _ id: DiagnosisID, _ layer: CheckID, _ reasons: Set<CheckReason>, also: [CheckID] = [], machineEvidence: [CheckID] = []
    ) -> DiagnosisRule {
        .gateway(id, explains: [layer: reasons]) { result, _ in
            guard let check = result.failing(layer, reasons) else { return nil }
            let label = result.target.label
            return Diagnosis(
                id, .check(check, target: label),
                evidence: ([layer] + also).map { .init($0, target: label) } + machineEvidence.map { .init($0) })
        }
    }

    static let nameNotFound = failure(.nameNotFound, .gwDNS, [.nameNotFound])
    static let nssMdnsMissing = failure(.nssMdnsMissing, .gwDNS, [.localNameWithoutNSS], machineEvidence: [.mdnsNSS])
    static let magicDNSNotApplied = failure(.magicDNSNotApplied, .gwDNS, [.magicDNSNotApplied], machineEvidence: [.tailscaleInterface])
    static let unknownTarget = failure(.unknownTarget, .gwDNS, [.unknownTarget])
    static let nameUnresolved = failure(.nameUnresolved, .gwDNS, [.noAddress, .localNameUnanswered])

    // MARK: TCP

    /// Advertised, and refused: the Gateway is stopped (or, on this machine, binds loopback).
    static let gatewayNotListening = DiagnosisRule.gateway(.gatewayNotListening, explains: [.gwTCP: [.refused]]) { result, _ in
        guard let beacon = result.beacon, !beacon.isManualOnly, result.failing(.gwTCP, [.refused]) != nil else { return nil }
        let target = result.target
        return Diagnosis(
            .gatewayNotListening,
            .notListening(
                target: target.label, mdns: beacon.sources.contains(.mdns), addresses: target.addresses, port: target.port,
                host: result.evidence.host),
            evidence: [.init(.gwTCP, target: target.label)])
    }

    /// Refused where no beacon promised a Gateway: a URL, a host, this machine.
    static let nothingListens = DiagnosisRule.gateway(.nothingListens, explains: [.gwTCP: [.refused, .nothingListensLocally]]) {
        result, _ in
        guard let tcp = result.failing(.gwTCP, [.refused, .nothingListensLocally]),
            tcp.reason == .nothingListensLocally || result.beacon?.isManualOnly ?? true
        else { return nil }
        return Diagnosis(.nothingListens, .check(tcp, target: result.target.label), evidence: [.init(.gwTCP, target: result.target.label)])
    }

    /// This machine could not open a connection (no descriptor or socket buffer left): the
    /// cause is here, not at the Gateway.
    static let localShortage = failure(.localShortage, .gwTCP, [.localShortage])

    /// Accepted and reset at once: the Gateway (or something in front of it) is out of
    /// connections, as under idle connections from one host.
    static let connectionReset = failure(.connectionReset, .gwTCP, [.connectionReset])

    /// The addresses a Gateway did not answer on, when it answered on none or a route is missing.
    static func silentAddresses(_ result: GatewayResult) -> [IPAddress] {
        guard let tcp = result.check(.gwTCP), [.timedOut, .unreachable, .partlyUnreachable].contains(tcp.reason) else { return [] }
        return result.evidence.tcp.silent
    }

    static let tailnetUnreachable = DiagnosisRule.gateway(.tailnetUnreachable, explains: [.gwTCP: [.timedOut, .unreachable]]) {
        result, machine in
        let tailnet = machine.facts.tailnet
        let lost = silentAddresses(result).filter { tailnet.contains($0) }
        guard !lost.isEmpty, result.check(.gwTCP)?.status == .fail else { return nil }
        let target = result.target
        return Diagnosis(
            .tailnetUnreachable, .tailnetUnreachable(target: target.label, lost: lost, port: target.port, tailnet: tailnet),
            evidence: [.init(.gwTCP, target: target.label), .init(.tailscaleInterface)])
    }

    /// The private ranges Docker gives its bridges.
    static let dockerNetwork = IPNetwork("172.16.0.0/12")!

    /// An advertised address this machine has no route to: a Docker bridge, another NIC. Never
    /// a loopback address: with no route to it, this machine's own loopback is down.
    static let unroutableAddress = DiagnosisRule.gateway(.unroutableAddress, explains: [.gwTCP: [.timedOut, .unreachable]]) {
        result, machine in
        let tailnet = machine.facts.tailnet
        let silent = silentAddresses(result)
        let lost = result.evidence.tcp.unroutable.filter { silent.contains($0) && !tailnet.contains($0) && !$0.isLoopback }
        guard !lost.isEmpty else { return nil }
        let label = result.target.label
        return Diagnosis(
            .unroutableAddress,
            .unroutable(
                target: label, lost: lost, docker: lost.contains { dockerNetwork.contains($0) },
                answered: result.check(.gwTCP)?.status != .fail),
            evidence: [.init(.gwTCP, target: label)])
    }

    static let firewall = routeless(.firewall, .timedOut)
    static let hostUnreachable = routeless(.hostUnreachable, .unreachable)

    /// A TCP failure that neither the tailnet nor a missing route explains.
    static func routeless(_ id: DiagnosisID, _ reason: CheckReason) -> DiagnosisRule {
        .gateway(id, explains: [.gwTCP: [reason]]) { result, machine in
            guard let tcp = result.failing(.gwTCP, [reason]),
                [tailnetUnreachable, unroutableAddress].allSatisfy({ $0.apply(machine, result, after: []).isEmpty })
            else { return nil }
            return Diagnosis(id, .check(tcp, target: result.target.label), evidence: [.init(.gwTCP, target: result.target.label)])
        }
    }
}
