import DNSSD
import Discovery

/// The `clawnet.browse.v1` document that `browse --format json` prints and
/// `zone generate --inventory` reads; as a table, one row per Gateway.
package struct BrowseReport: Report, Sendable {
    package let domains: [String]
    package let elapsed: Duration
    package let beacons: [GatewayBeacon]
    package let errors: [DiscoveryIssue]
    /// What was browsed, for the summary line: the domains, and "manual targets".
    let places: [String]
    /// Only mDNS was asked for (no domain, no manual target): without Avahi nothing could be done.
    let onlyMulticast: Bool
    /// The width the table wraps to (a terminal's, or COLUMNS); nil: rows stay whole.
    package var width: Int?

    package init(request: DiscoveryRequest, snapshot: DiscoverySnapshot) {
        domains = request.browsedDomains.map(\.name)
        elapsed = snapshot.elapsed
        beacons = snapshot.beacons
        errors = snapshot.issues
        places = domains + (request.manual.isEmpty ? [] : ["manual targets"])
        onlyMulticast = request.domains.isEmpty && request.manual.isEmpty
    }

    /// 3 when nothing could be done (nothing found, only mDNS asked for, and Avahi or its bus
    /// missing); 1 when nothing was found, or every path failed; 0 when a Gateway was found.
    package var exitStatus: ExitStatus {
        let missing: Set<DiscoveryIssue.Kind> = [.busMissing, .daemonMissing]
        if beacons.isEmpty, onlyMulticast, errors.contains(where: { missing.contains($0.kind) }) { return .environment }
        // A manual target that did not resolve is listed (with why), but nothing was found there.
        let found = beacons.contains { !$0.isManualOnly || !$0.addresses.isEmpty }
        return found ? .success : .failure
    }

    package func table(_ terminal: Terminal) -> Lines {
        var lines = Lines()
        if !beacons.isEmpty { lines.out = BeaconTable.lines(beacons, terminal: terminal, width: width) }
        lines.err = IssueLines.lines(errors, terminal: terminal)
        let seconds = elapsed.secondsText(fractionDigits: 2)
        let joined = places.joined(separator: ", ")
        let summary =
            beacons.isEmpty
            ? "No OpenClaw Gateways found in \(joined.isEmpty ? "nothing browsed" : joined) (\(seconds) s)."
            : "\(Plural.counted(beacons.count, "Gateway")) in \(joined) (\(seconds) s)"
        lines.err.append(terminal.paint(summary, .dim, stderr: true))
        return lines
    }

    /// The document as `JSONOutput.pretty` writes `encode(to:)` (a test holds them equal), written
    /// directly: hundreds of beacons through Codable's containers took a third of a browse.
    package func json() throws -> String {
        var json = PrettyJSON(reservingCapacity: 4_096 * (beacons.count + 1))
        json.object { json in
            json.key("beacons")
            json.array { json in
                for beacon in beacons { beacon.write(to: &json) }
            }
            json.key("domains")
            json.strings(domains)
            json.key("elapsedMs")
            json.int(Int(elapsed.milliseconds))
            json.key("errors")
            json.array { json in
                for error in errors { DiscoveryIssueJSON(error).write(to: &json) }
            }
            json.key("schema")
            json.string(Schema.browse)
        }
        return JSONOutput.escapingControls(json.bytes)
    }

    private enum CodingKeys: String, CodingKey { case schema, domains, elapsedMs, beacons, errors }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Schema.browse, forKey: .schema)
        try container.encode(domains, forKey: .domains)
        try container.encode(Int(elapsed.milliseconds), forKey: .elapsedMs)
        try container.encode(beacons, forKey: .beacons)
        try container.encode(errors.map(DiscoveryIssueJSON.init), forKey: .errors)
    }
}
