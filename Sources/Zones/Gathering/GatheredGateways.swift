import DNSSD

/// What one source of Gateways gave: an inventory, a browse.
public struct GatewayYield: Sendable {
    public var gateways: [ZoneGateway] = []
    public var notes: [String] = []
    /// Instances the source saw but cannot publish (each skipped with a note): never pruned on
    /// its word, since they exist.
    public var skipped: [InstanceName] = []
    /// What went wrong while it was read: browse errors on any path it asked, a browse that ran
    /// out of time, errors the browse that wrote an inventory saved in it.
    public var failures: [String] = []

    public init(gateways: [ZoneGateway] = [], notes: [String] = [], skipped: [InstanceName] = [], failures: [String] = []) {
        self.gateways = gateways
        self.notes = notes
        self.skipped = skipped
        self.failures = failures
    }
}

/// The Gateways every source of a command gave (`zone generate`, `zone push`), and the one rule
/// for removing any on their word.
public struct GatheredGateways: Sendable {
    public private(set) var gateways: [ZoneGateway] = []
    public private(set) var notes: [String] = []
    public private(set) var skipped: [InstanceName] = []
    /// The sources that list what exists (`--inventory FILE`, `--from-browse`), by the flag that
    /// asked for them, with how many Gateways each gave and what failed.
    public private(set) var listings: [(source: String, found: Int, failures: [String])] = []

    public init() {}

    /// Gateways the operator named one by one (--gateway, --this-host): they cannot fail silently.
    public mutating func add(named: [ZoneGateway], notes: [String] = []) {
        gateways += named
        self.notes += notes
    }

    /// What a listing source gave: its failures become notes here too.
    public mutating func add(_ yield: GatewayYield, from source: String) {
        gateways += yield.gateways
        notes += yield.notes + yield.failures.map { "\(source): \($0)" }
        skipped += yield.skipped
        listings.append((source, yield.gateways.count, yield.failures))
    }

    /// The rule every command that removes Gateways follows (`zone generate --out` replaces the
    /// whole zone, `zone push --prune` deletes instances): a listing source that failed, wholly
    /// or in part, or that gave no Gateway, removes nothing. Partial failures count: a domain
    /// that did not answer would otherwise lose every Gateway it serves. nil when removing is
    /// safe; otherwise the error to stop with (exit 1), saying what `kept` stays as it is.
    public func removalRefusal(kept: String, instead: String) -> ZoneError? {
        var reasons: [String] = []
        for listing in listings {
            if !listing.failures.isEmpty {
                reasons.append("\(listing.source) failed (\(listing.failures.joined(separator: "; ")))")
            } else if listing.found == 0 {
                reasons.append("\(listing.source) gave no Gateway that can be published")
            }
        }
        guard !reasons.isEmpty else { return nil }
        return ZoneError(
            "\(reasons.joined(separator: "; ")): a failed or empty source is no reason to remove Gateways, so \(kept) is left as it is",
            fix: "check what browse finds (`clawnet browse`) or the inventory; \(instead)")
    }
}
