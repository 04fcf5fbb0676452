import DNSSD
import DNSUpdate
import DNSWire
import Output
import Zones

/// `zone push` with several --domain: the zones of one primary in one run.
extension ZonePushCommand {
    /// Each zone read, planned and sent on its own, several at a time; then each reported in
    /// the order given. A zone that fails is named with its error, the others keep theirs.
    func pushZones(_ context: CommandContext, until deadline: ContinuousClock.Instant) async throws -> ExitStatus {
        let terminal = context.terminal
        guard let inventory = sources.inventory else { return .usage }
        let (gathered, notes) = try GatewayCollector.gather(inventory: inventory, zones: domain)
        terminal.notes(notes)
        var zones: [ZoneSetPush.Zone] = []
        for (zoneDomain, zoneGateways) in gathered {
            terminal.notes(zoneGateways.notes)
            let registrar = try Registrar(domain: zoneDomain, server: server, key: tsigKey.key)
            let (records, keeping, recordNotes) = try registrar.pushRecords(zoneGateways, prune: prune)
            terminal.notes(recordNotes)
            zones.append(ZoneSetPush.Zone(registrar: registrar, records: records, keeping: keeping))
        }
        let outcomes = await ZoneSetPush.run(zones, prune: prune, send: !dryRun, until: deadline)
        for (zone, outcome) in zip(zones.map(\.registrar.zone), outcomes) {
            report(outcome, zone: zone, terminal: terminal)
        }
        return outcomes.allSatisfy { $0.failure == nil } ? .success : .failure
    }

    /// One zone's lines: what was read and planned, the dry run's script or what was sent, and
    /// the error that stopped it, named by its zone.
    private func report(_ outcome: ZoneSetPush.Outcome, zone: DNSName, terminal: Terminal) {
        if let push = outcome.push {
            terminal.print(ZonePushLines.plan(push, server: server, zone: zone))
            if dryRun && !push.plan.isEmpty {
                terminal.print(ZonePushLines.dryRun(push, server: server, zone: zone, key: tsigKey.key))
            } else if outcome.applied > 0 && outcome.failure == nil {
                terminal.err(ZonePushLines.pushed(push, server: server, applied: outcome.applied) + " for \(zone)")
            }
        }
        if let failure = outcome.failure {
            let shown = dryRun && outcome.push == nil ? Self.readFirst(failure, server: server) : failure
            terminal.err(lines: terminal.errorLines("\(zone): \(shown.message)", fix: shown.fix))
        }
    }
}
