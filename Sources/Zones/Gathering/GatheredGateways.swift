import DNSSD

/// What one source of Gateways gave: an inventory, a browse.
public struct GatewayYield: Sendable {
    package var gateways: [ZoneGateway] = []
    package var notes: [ZoneNote] = []
    /// Instances the source saw but cannot publish (each skipped with a note): never pruned on
    /// its word, since they exist.
    package var skipped: [InstanceName] = []
    /// What went wrong while it was read: browse errors on any path it asked, a browse that ran
    /// out of time, errors the browse that wrote an inventory saved in it.
    package var failures: [SourceFailure] = []

    package init(
        gateways: [ZoneGateway] = [], notes: [ZoneNote] = [], skipped: [InstanceName] = [], failures: [SourceFailure] = []
    ) {
        self.gateways = gateways
        self.notes = notes
        self.skipped = skipped
        self.failures = failures
    }
}

/// What went wrong while a listing source was read; Output says it.
package enum SourceFailure: Sendable, Hashable {
    /// An error of a discovery path `--from-browse` asked.
    case browse(DiscoveryIssue)
    /// `--from-browse` stopped at its timeout before every path reported all it knows.
    case browseTimedOut(Duration)
    /// An error the browse that wrote an inventory saved in it: its `source` and `message`, as
    /// the file has them (text from outside, shown only through SafeText).
    case saved(source: String?, message: String?)
}

/// The Gateways every source of a command gave (`zone generate`, `zone push`), and the one rule
/// for removing any on their word.
package struct GatheredGateways: Sendable {
    /// A source that lists what exists, by the flag that asked for it.
    package enum Source: Sendable, Hashable {
        /// `--inventory PATH`.
        case inventory(path: String)
        /// `--from-browse`.
        case browse
    }

    /// What a listing source gave: how many Gateways, and what failed.
    package struct Listing: Sendable, Hashable {
        package let source: Source
        package let found: Int
        package let failures: [SourceFailure]

        package init(source: Source, found: Int, failures: [SourceFailure]) {
            self.source = source
            self.found = found
            self.failures = failures
        }
    }

    /// What removing Gateways on the sources' word would change.
    package enum Removal: Sendable, Hashable {
        /// `zone generate --out`: the zone file at `path` is replaced whole.
        case zoneFile(path: String)
        /// `zone push --prune`: instances of the zone are deleted.
        case prune(zone: DomainName)
    }

    package private(set) var gateways: [ZoneGateway] = []
    package private(set) var notes: [ZoneNote] = []
    package private(set) var skipped: [InstanceName] = []
    /// The sources that list what exists (`--inventory FILE`, `--from-browse`), with how many
    /// Gateways each gave and what failed.
    package private(set) var listings: [Listing] = []

    package init() {}

    /// Gateways the operator named one by one (--gateway, --this-host): they cannot fail silently.
    package mutating func add(named: [ZoneGateway], notes: [ZoneNote] = []) {
        gateways += named
        self.notes += notes
    }

    /// What a listing source gave: its failures become notes here too.
    package mutating func add(_ yield: GatewayYield, from source: Source) {
        gateways += yield.gateways
        notes += yield.notes + yield.failures.map { .sourceFailed(source, failure: $0) }
        skipped += yield.skipped
        listings.append(Listing(source: source, found: yield.gateways.count, failures: yield.failures))
    }

    /// The rule every command that removes Gateways follows (`zone generate --out` replaces the
    /// whole zone, `zone push --prune` deletes instances): a listing source that failed, wholly
    /// or in part, or that gave no Gateway, removes nothing. Partial failures count: a domain
    /// that did not answer would otherwise lose every Gateway it serves. nil when removing is
    /// safe; otherwise the error to stop with (exit 1), naming the sources at fault.
    package func removalRefusal(_ removal: Removal) -> ZoneError? {
        let atFault = listings.filter { !$0.failures.isEmpty || $0.found == 0 }
        guard !atFault.isEmpty else { return nil }
        return ZoneError(.removalRefused(removal, sources: atFault))
    }
}
