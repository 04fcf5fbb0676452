import DNSSD

/// The human view of beacons: one row each, warnings under their row. With a `width` (a
/// terminal's, or COLUMNS), rows and warnings wrap to it; without one, each stays one line.
enum BeaconTable {
    static func lines(_ beacons: [GatewayBeacon], terminal: Terminal, width: Int? = nil) -> [String] {
        var table = TextTable(header: ["INSTANCE", "HOST:PORT", "ADDRESSES", "TLS", "SOURCE"])
        var warningsAfterRow: [Int: [String]] = [:]
        for beacon in beacons {
            table.rows.append(row(beacon))
            warningsAfterRow[table.rows.count] = beacon.warnings
        }
        var lines: [String] = []
        for (index, row) in table.renderRows(width: width).enumerated() {
            lines += index == 0 ? row.map { terminal.paint($0, .bold) } : row
            for warning in warningsAfterRow[index] ?? [] {
                lines += TextWrap.hanging("! ", indent: 2, warning, width: width.map { $0 - 2 }).map { "  " + terminal.paint($0, .yellow) }
            }
        }
        return lines
    }

    static func row(_ beacon: GatewayBeacon) -> [String] {
        // An IPv6 literal in brackets ([::1]:9), as a URL writes it.
        let hostPort = beacon.host.map { host in beacon.port.map { Endpoint(host: host.text, port: $0).description } ?? host.text } ?? "-"
        let addresses = beacon.addresses.isEmpty ? "-" : beacon.addresses.map(\.description).joined(separator: ", ")
        return [beacon.instance.displayName, hostPort, addresses, tls(beacon.gateway), source(beacon)]
    }

    /// One line for watch mode: a mark, then the row's cells; wider than `width`, the cells go on
    /// under the first.
    static func eventLines(_ mark: String, _ beacon: GatewayBeacon, width: Int? = nil) -> [String] {
        let cells = row(beacon).joined(separator: "  ")
        guard let width, displayWidth(cells) + markIndent > width else { return [mark + "  " + cells] }
        return TextWrap.hanging(mark + "  ", indent: markIndent, cells, width: width)
    }

    /// "+  ": a mark and the gap after it.
    static let markIndent = 3

    static func tls(_ gateway: GatewayInfo) -> String {
        guard gateway.advertisesTLS else { return "no" }
        return gateway.tlsSha256.map { "sha256 \($0.short)…" } ?? "yes"
    }

    /// `mdns (eth0)`, `unicast (127.0.0.1#5303)`, `mdns+unicast (eth0, 100.100.100.100#53)`.
    static func source(_ beacon: GatewayBeacon) -> String {
        let text = beacon.sources.sorted().map(\.rawValue).joined(separator: "+")
        let details = beacon.interfaces + beacon.resolvers
        return details.isEmpty ? text : "\(text) (\(details.joined(separator: ", ")))"
    }
}

/// Discovery errors for stderr, each with its fix.
public enum IssueLines {
    public static func lines(_ issues: [DiscoveryIssue], terminal: Terminal) -> [String] {
        issues.flatMap { issue -> [String] in
            var lines = [terminal.paint("error", .red, stderr: true) + " (\(issue.source.rawValue)): \(issue.message)"]
            if let fix = issue.fix { lines.append("  fix: \(fix)") }
            return lines
        }
    }
}
