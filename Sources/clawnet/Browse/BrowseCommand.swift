import ArgumentParser
import DNSSD
import Discovery
import FoundationEssentials

struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "List the OpenClaw Gateways this machine can discover.",
        discussion: """
            Browses _openclaw-gw._tcp in local. through avahi-daemon, in every wide-area domain \
            by unicast DNS-SD (PTR, SRV, TXT, A/AAAA), and resolves manual targets, all at once, \
            and prints one row per Gateway: the instance name decoded, host and port from SRV, \
            every address (IPv6 link-local with its interface), TLS and its pinned fingerprint, \
            and every path that saw it. Warnings under a row name contradictions in the beacon.

            Wide-area domains come from --domain, else from the OpenClaw config \
            (discovery.wideArea.domain in ~/.openclaw/openclaw.json) or OPENCLAW_WIDE_AREA_DOMAIN. \
            They are asked of the system's resolvers (/etc/resolv.conf) unless --server names \
            servers. On a tailnet, when the system's resolvers find nothing, Tailscale's resolver \
            100.100.100.100 is asked too: an answer only there means split DNS is not applied \
            on this machine, and the error line says how to fix it.

            The same Gateway seen on several paths is one row: beacons from different paths \
            are merged when port and display name match and the TLS fingerprint (or, without \
            one, the host label) is the same; a manual target joins a Gateway with its port \
            and one of its addresses.

            Without --watch it stops when every path has reported what it knows (or at \
            --timeout, 5s by default). --format json prints one clawnet.browse.v1 document; \
            jsonl prints one event per line as it happens \
            ({"event":"added"|"updated"|"removed"|"error"|"allForNow", ...}).

            Examples:

                clawnet browse
                clawnet browse --domain openclaw.internal --server 100.101.102.103
                clawnet browse --watch --format jsonl
                clawnet browse --format json > fleet.json

            \(Exit.status(
                (Exit.success, "browsing ended, also when nothing was found (errors are printed)"),
                (Exit.environment, "only mDNS was asked for, and there is no D-Bus or no avahi-daemon")))
            """
    )

    @Option(name: .customLong("domain"), help: ArgumentHelp("A wide-area domain to browse by unicast DNS-SD, e.g. openclaw.internal (repeatable).", valueName: "DOMAIN"))
    var domains: [String] = []

    @Flag(name: .customLong("no-local"), help: "Do not browse local. by mDNS.")
    var noLocal = false

    @Option(name: .customLong("server"), help: ArgumentHelp("A DNS server for the wide-area domains instead of the system's, ADDRESS[:PORT] (repeatable; IPv6 in brackets).", valueName: "HOST[:PORT]"))
    var servers: [String] = []

    @Option(name: .customLong("manual"), help: ArgumentHelp("A Gateway given by hand: HOST[:PORT] (default port 18789), or a ws:// or wss:// URL (repeatable).", valueName: "HOST[:PORT]"))
    var manual: [String] = []

    @Option(name: .customLong("type"), help: ArgumentHelp("A service type to browse instead of _openclaw-gw._tcp (repeatable).", valueName: "TYPE"))
    var types: [String] = []

    @Flag(name: .customLong("legacy-types"), help: "Also browse the types of older releases (_moltbot-gw, _clawdbot-gw, _clawdbot-bridge, _clawdis-bridge).")
    var legacyTypes = false

    @Option(help: ArgumentHelp("Stop after this long (e.g. 3s, 500ms). Default 5s; none with --watch.", valueName: "DURATION"))
    var timeout: DurationArgument?

    @Flag(help: "Keep running and report changes until interrupted; reconnects when avahi-daemon restarts, asks DNS again as TTLs run out.")
    var watch = false

    @Option(help: "table, json (one clawnet.browse.v1 document) or jsonl (one event per line).")
    var format: OutputFormat = .table

    @Option(name: .customLong("config"), help: ArgumentHelp("OpenClaw config to read (default ~/.openclaw/openclaw.json).", valueName: "PATH"))
    var configPath: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        for type in types {
            do { _ = try ServiceType(validating: type) } catch { throw ValidationError("--type \(type): \(error.message)") }
        }
        _ = try ParsedArguments.domains(domains)
        _ = try ParsedArguments.servers(servers)
        _ = try ParsedArguments.endpoints(manual)
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

    /// Flags first, then the OpenClaw config, then built-in defaults.
    func request(config: OpenClawConfig) -> DiscoveryRequest {
        var request = DiscoveryRequest()
        request.types = serviceTypes
        request.local = !noLocal
        request.domains = domains.compactMap { try? DomainName(validating: $0) }
        if domains.isEmpty, let configured = config.wideAreaDomain { request.domains = [configured] }
        request.unicast.servers = servers.compactMap { try? DNSServer(parsing: $0) }
        if !NetworkInterface.tailscaleAddresses().isEmpty { request.unicast.tailscaleResolver = .tailscale }
        let port = config.gatewayPort ?? Endpoint.defaultGatewayPort
        request.manual = manual.compactMap { try? Endpoint.parse($0, defaultPort: port) }
        request.manualTLS = config.tlsEnabled
        request.watch = watch
        return request
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let started = ContinuousClock.now
        let config = OpenClawConfig.load(explicitPath: configPath)
        let request = request(config: config)
        if request.domains.isEmpty && !servers.isEmpty {
            throw ValidationError("--server needs a wide-area domain to ask about: add --domain (or set discovery.wideArea.domain / OPENCLAW_WIDE_AREA_DOMAIN)")
        }
        let deadline = watch ? timeout?.duration : (timeout?.duration ?? .seconds(5))
        var collection = BeaconCollection()
        for warning in config.warnings {
            collection.apply(.error(DiscoveryIssue(source: .config, kind: .config, message: warning)))
        }
        var timedOut = false
        let live = LiveOutput(format: format, watch: watch, terminal: terminal, started: started)
        for issue in collection.errors { live.show(.error(issue), collection: collection) }

        for await tick in DiscoverySession.events(request).until(deadline) {
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
        let domainNames = request.browsedDomains.map(\.name)
        switch format {
        case .json:
            let report = BrowseReport(
                domains: domainNames, elapsedMs: Int(elapsed.milliseconds),
                beacons: collection.beacons, errors: collection.errors)
            terminal.out(try JSONOutput.pretty(report))
        case .table where !watch:
            if collection.count > 0 {
                BeaconTable.lines(collection.beacons, terminal: terminal).forEach(terminal.out)
            }
            for line in IssueLines.lines(collection.errors, terminal: terminal) { terminal.err(line) }
            let places = (domainNames + (request.manual.isEmpty ? [] : ["manual targets"])).joined(separator: ", ")
            let summary = collection.count == 0
                ? "No OpenClaw Gateways found in \(places.isEmpty ? "nothing browsed" : places) (\(elapsed.secondsText) s)."
                : "\(collection.count) Gateway\(collection.count == 1 ? "" : "s") in \(places) (\(elapsed.secondsText) s)"
            terminal.err(terminal.paint(summary, .dim, stderr: true))
        default:
            break
        }
        if timedOut && !watch && format != .jsonl {
            terminal.err("note: stopped at the \(DurationArgument(deadline ?? .zero)) timeout before every path reported everything; results may be incomplete")
        }
        // Exit 3 only when nothing could be done: every error is a missing prerequisite.
        let environmentKinds: Set<DiscoveryIssue.Kind> = [.busMissing, .daemonMissing]
        let onlyMulticast = request.domains.isEmpty && request.manual.isEmpty
        if collection.count == 0, onlyMulticast, collection.errors.contains(where: { environmentKinds.contains($0.kind) }) {
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
            terminal.progress("browsing … \(collection.count) found")
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
