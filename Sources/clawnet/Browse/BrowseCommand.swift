import ArgumentParser
import DNSSD
import Discovery
import FoundationEssentials

struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "List the OpenClaw Gateways this machine can discover.",
        discussion: """
            Browses _openclaw-gw._tcp in local. through avahi-daemon and prints one row per \
            Gateway: the instance name decoded, host and port from SRV, every address (IPv6 \
            link-local with its interface), TLS and its pinned fingerprint, and what saw it. \
            Warnings under a row name contradictions in the beacon.

            Without --watch it stops when Avahi has reported everything it knows (or at \
            --timeout, 5s by default). With a warm Avahi cache that takes a fraction of a second.

            --format json prints one clawnet.browse.v1 document; jsonl prints one event per line \
            as it happens ({"event":"added"|"updated"|"removed"|"error"|"allForNow", ...}).

            \(Exit.helpText)
            """
    )

    @Option(name: .customLong("type"), help: ArgumentHelp("A service type to browse instead of _openclaw-gw._tcp (repeatable).", valueName: "TYPE"))
    var types: [String] = []

    @Flag(name: .customLong("legacy-types"), help: "Also browse the types of older releases (_moltbot-gw, _clawdbot-gw, _clawdbot-bridge, _clawdis-bridge).")
    var legacyTypes = false

    @Option(help: ArgumentHelp("Stop after this long (e.g. 3s, 500ms). Default 5s; none with --watch.", valueName: "DURATION"))
    var timeout: DurationArgument?

    @Flag(help: "Keep running and report changes until interrupted; reconnects when avahi-daemon restarts.")
    var watch = false

    @Option(help: "table, json (one clawnet.browse.v1 document) or jsonl (one event per line).")
    var format: OutputFormat = .table

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        for type in types {
            do { _ = try ServiceType(validating: type) } catch { throw ValidationError("--type \(type): \(error.message)") }
        }
        if format == .json && watch {
            throw ValidationError("--format json prints one document at the end; with --watch use --format jsonl")
        }
    }

    var serviceTypes: [ServiceType] {
        var result = types.isEmpty ? [ServiceType.gateway] : types.compactMap { try? ServiceType(validating: $0) }
        if legacyTypes { result += ServiceType.legacy }
        var seen = Set<ServiceType>()
        return result.filter { seen.insert($0).inserted }
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let started = ContinuousClock.now
        let deadline = watch ? timeout?.duration : (timeout?.duration ?? .seconds(5))
        let stream = MulticastBackend().browse(types: serviceTypes, watch: watch)
        var collection = BeaconCollection()
        var timedOut = false
        let live = LiveOutput(format: format, watch: watch, terminal: terminal, started: started)

        for await tick in stream.until(deadline) {
            guard case .element(let event) = tick else {
                timedOut = true
                break
            }
            collection.apply(event)
            live.show(event, collection: collection)
            if event == .allForNow && !watch { break }
        }
        terminal.clearProgress()

        let elapsed = ContinuousClock.now - started
        switch format {
        case .json:
            let report = BrowseReport(
                domains: [DomainName.local.name], elapsedMs: Int(elapsed.milliseconds),
                beacons: collection.beacons, errors: collection.errors)
            terminal.out(try JSONOutput.pretty(report))
        case .table where !watch:
            if collection.count > 0 {
                BeaconTable.lines(collection.beacons, terminal: terminal).forEach(terminal.out)
            }
            for line in IssueLines.lines(collection.errors, terminal: terminal) { terminal.err(line) }
            let seconds = elapsed.secondsText
            let summary = collection.count == 0
                ? "No OpenClaw Gateways found in local. (\(seconds) s)."
                : "\(collection.count) Gateway\(collection.count == 1 ? "" : "s") in local. (\(seconds) s)"
            terminal.err(terminal.paint(summary, .dim, stderr: true))
        default:
            break
        }
        if timedOut && !watch && format != .jsonl {
            terminal.err("note: stopped at the \(DurationArgument(deadline ?? .zero)) timeout before Avahi reported everything; results may be incomplete")
        }
        if collection.count == 0, !collection.errors.isEmpty,
           collection.errors.allSatisfy({ $0.kind == .busMissing || $0.kind == .daemonMissing }) {
            throw Exit.environment
        }
    }
}

/// What is printed while events arrive: jsonl lines, watch-mode rows, or a progress line.
struct LiveOutput {
    let format: OutputFormat
    let watch: Bool
    let terminal: Terminal
    let started: ContinuousClock.Instant

    func show(_ event: DiscoveryEvent, collection: BeaconCollection) {
        switch format {
        case .jsonl:
            let elapsed = Int((ContinuousClock.now - started).milliseconds)
            if let line = try? JSONOutput.compact(EventLine(event: event, elapsedMs: elapsed)) { terminal.out(line) }
        case .table where watch:
            switch event {
            case .added(let beacon): terminal.out(BeaconTable.eventLine(terminal.paint("+", .green), beacon))
            case .updated(let beacon): terminal.out(BeaconTable.eventLine("~", beacon))
            case .removed(let beacon): terminal.out(BeaconTable.eventLine(terminal.paint("-", .red), beacon))
            case .error(let issue): IssueLines.lines([issue], terminal: terminal).forEach(terminal.err)
            case .allForNow: terminal.err(terminal.paint("= all for now: \(collection.count) Gateway(s)", .dim, stderr: true))
            }
        default:
            terminal.progress("browsing local. … \(collection.count) found")
        }
    }
}

/// One line of `--format jsonl`.
struct EventLine: Encodable {
    let event: DiscoveryEvent
    let elapsedMs: Int

    private enum Key: String, CodingKey { case event, beacon, error, elapsedMs }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch event {
        case .added(let beacon):
            try container.encode("added", forKey: .event)
            try container.encode(beacon, forKey: .beacon)
        case .updated(let beacon):
            try container.encode("updated", forKey: .event)
            try container.encode(beacon, forKey: .beacon)
        case .removed(let beacon):
            try container.encode("removed", forKey: .event)
            try container.encode(beacon, forKey: .beacon)
        case .error(let issue):
            try container.encode("error", forKey: .event)
            try container.encode(issue, forKey: .error)
        case .allForNow:
            try container.encode("allForNow", forKey: .event)
        }
        try container.encode(elapsedMs, forKey: .elapsedMs)
    }
}

enum JSONOutput {
    static func pretty(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func compact(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
