import DNSSD
import Probes

/// `zone generate --from-browse`: what mDNS found on this LAN, made fit for a zone meant for
/// the tailnet. A beacon that cannot be written is skipped with its reason (one hostile
/// beacon never stops the others); LAN addresses, which nodes on the tailnet cannot reach,
/// are named (or left out with `tailnetOnly`); and every Gateway gets one short TCP connect,
/// so the operator hears which ones did not answer before nodes do.
public enum BrowseMirror {
    public static func gateways(
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
            let shown = lan.map(\.description).joined(separator: ", ")
            if tailnetOnly {
                gateway.addresses.removeAll { !$0.isTailscale }
                guard !gateway.addresses.isEmpty else {
                    notes.append("skipped '\(gateway.instance.displayName)': it has no tailnet address, only \(shown) (--tailnet-only)")
                    continue
                }
                notes.append("'\(gateway.instance.displayName)': left out its non-tailnet address(es) \(shown) (--tailnet-only)")
            } else {
                notes.append(
                    "'\(gateway.instance.displayName)' is published with non-tailnet address(es) \(shown): nodes on the tailnet cannot "
                        + "reach them (--tailnet-only publishes only 100.64.0.0/10 and fd7a:115c:a1e0::/48)")
            }
            gateways.append(gateway)
        }
        yield.notes = notes + (await unanswered(gateways, timeout: connectTimeout))
        yield.gateways = gateways
        return yield
    }

    /// A note for every Gateway that took no TCP connection on any published address.
    static func unanswered(_ gateways: [ZoneGateway], timeout: Duration) async -> [String] {
        guard !gateways.isEmpty else { return [] }
        guard timeout > .zero else {
            return ["no time was left to check whether the \(Plural.counted(gateways.count, "Gateway")) answer (raise --timeout)"]
        }
        let targets = gateways.map { gateway in
            ProbeTarget(
                label: gateway.instance.displayName, host: gateway.addresses.first?.description ?? gateway.hostLabel,
                addresses: gateway.addresses, port: gateway.port, tls: false)
        }
        let reports = await GatewayProbe.runAll(targets, budget: timeout, phases: [.tcp])
        return reports.compactMap { report in
            guard report.connectedAddress == nil else { return nil }
            let attempts = report.tcp.map { "\($0.address): \(describe($0.outcome))" }.joined(separator: "; ")
            return "'\(report.target.label)' did not answer on port \(report.target.port) (\(attempts)); it is published anyway: "
                + "is it running, and listening on that address?"
        }
    }

    private static func describe(_ outcome: TCPAttempt.Outcome) -> String {
        switch outcome {
        case .connected: "connected"
        case .refused: "refused"
        case .timedOut: "no answer"
        case .reset: "reset at once"
        case .unreachable(let why), .localShortage(let why): why
        case .failed(let why): SafeText.display(Array(why.utf8))
        }
    }
}
