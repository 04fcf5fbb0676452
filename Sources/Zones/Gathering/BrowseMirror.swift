import DNSSD
import Probes

/// `zone generate --from-browse`: what mDNS found on this LAN, made fit for a zone meant for
/// the tailnet. A beacon that cannot be written is skipped with its reason (one hostile
/// beacon never stops the others); LAN addresses, which nodes on the tailnet cannot reach,
/// are named (or left out with `tailnetOnly`); and every Gateway gets one short TCP connect,
/// so the operator hears which ones did not answer before nodes do.
package enum BrowseMirror {
    package static func gateways(
        from beacons: [GatewayBeacon], domain: DomainName, tailnetOnly: Bool, connectTimeout: Duration
    ) async -> GatewayYield {
        var yield = Inventory.gateways(from: beacons, domain: domain)
        var notes = yield.notes
        var gateways: [ZoneGateway] = []
        for var gateway in yield.gateways {
            let lan = gateway.addresses.filter { !$0.isTailscale }
            guard !lan.isEmpty else {
                gateways.append(gateway)
                continue
            }
            if tailnetOnly {
                gateway.addresses.removeAll { !$0.isTailscale }
                guard !gateway.addresses.isEmpty else {
                    notes.append(.noTailnetAddressSkipped(name: gateway.instance.displayName, lan: lan))
                    continue
                }
                notes.append(.lanAddressesLeftOut(name: gateway.instance.displayName, lan: lan))
            } else {
                notes.append(.lanAddressesPublished(name: gateway.instance.displayName, lan: lan))
            }
            gateways.append(gateway)
        }
        yield.notes = notes + (await unanswered(gateways, timeout: connectTimeout))
        yield.gateways = gateways
        return yield
    }

    /// A note for every Gateway that took no TCP connection on any published address.
    static func unanswered(_ gateways: [ZoneGateway], timeout: Duration) async -> [ZoneNote] {
        guard !gateways.isEmpty else { return [] }
        guard timeout > .zero else {
            return [.noTimeToCheck(count: gateways.count)]
        }
        let targets = gateways.map { gateway in
            ProbeTarget(
                label: gateway.instance.displayName, host: gateway.addresses.first?.description ?? gateway.hostLabel,
                addresses: gateway.addresses, port: gateway.port, tls: false)
        }
        let reports = await GatewayProbe.runAll(targets, budget: timeout, phases: [.tcp])
        return reports.compactMap { report in
            guard report.connectedAddress == nil else { return nil }
            return .didNotAnswer(name: report.target.label, port: report.target.port, attempts: report.tcp)
        }
    }
}
