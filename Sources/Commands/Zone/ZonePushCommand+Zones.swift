import DNSSD
import DNSUpdate
import DNSWire
import Output
import Zones

/// `zone push` with several --domain: the zones of one primary in one run; and how each zone's
/// outcome is reported.
extension ZonePushCommand {
    /// Each zone read, planned and sent on its own, several at a time; then each reported in
    /// the order given. A zone that fails is named with its error, the others keep theirs.
    func pushZones(_ context: CommandContext, until deadline: ContinuousClock.Instant) async throws -> ExitStatus {
        let terminal = context.terminal
        guard let inventory = sources.inventory else { return .usage }
        let (gathered, notes) = try GatewayCollector.gather(inventory: inventory, zones: domain)
        terminal.notes(notes)
        var zones: [ZonePush] = []
        for (zoneDomain, zoneGateways) in gathered {
            terminal.notes(zoneGateways.notes)
            let registrar = try Registrar(domain: zoneDomain, server: server, key: tsigKey.key)
            let (records, keeping, recordNotes) = try registrar.pushRecords(zoneGateways, prune: prune)
            terminal.notes(recordNotes)
            zones.append(ZonePush(registrar: registrar, records: records, keeping: keeping, ledgerFile: ledgerFile(registrar, context)))
        }
        let outcomes = await ZoneSetPush.run(zones, prune: prune, send: !dryRun, until: deadline)
        for (zone, outcome) in zip(zones.map(\.registrar.zone), outcomes) {
            report(outcome, zone: zone, terminal: terminal, naming: true)
            if let failure = outcome.failure {
                let shown = dryRun && outcome.push == nil ? Self.readFirst(failure, server: server) : failure
                terminal.err(lines: terminal.errorLines("\(zone): \(shown.message)", fix: shown.fix))
            }
        }
        return outcomes.allSatisfy { $0.failure == nil } ? .success : .failure
    }

    /// One zone's lines: the ledger's problems, what the plan was made from and what it changes,
    /// and the dry run's script or what was sent (`naming` the zone when there are several).
    func report(_ outcome: ZonePush.Outcome, zone: DNSName, terminal: Terminal, naming: Bool) {
        terminal.err(lines: outcome.ledgerProblems.map(ZonePushLines.ledger))
        guard let push = outcome.push else { return }
        terminal.print(ZonePushLines.plan(push, server: server, zone: zone))
        if dryRun && !push.plan.isEmpty {
            terminal.print(ZonePushLines.dryRun(push, server: server, zone: zone, key: tsigKey.key))
        } else if outcome.applied > 0 && outcome.failure == nil {
            terminal.err(ZonePushLines.pushed(push, server: server, applied: outcome.applied) + (naming ? " for \(zone)" : ""))
        }
    }
}
