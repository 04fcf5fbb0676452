import DNSSD

/// The human view of beacons: one row per Gateway, warnings under their row. With a `width` (a
/// terminal's, or COLUMNS), rows and warnings wrap to it, never inside a URL or an address: when
/// the addresses do not fit beside the rest (an IPv6 address is long), they go under their row;
/// without a width, each row stays one line.
enum BeaconTable {
    static let header = ["INSTANCE", "URL", "ADDRESSES", "TLS", "SOURCE"]
    /// URL and ADDRESSES: a URL or an address cut in two can no longer be pasted.
    static let whole: Set<Int> = [1, 2]
    static let addressColumn = 2

    static func lines(_ beacons: [GatewayBeacon], terminal: Terminal, width: Int? = nil) -> [String] {
        let rows = beacons.map(row)
        var table = TextTable(header: header, rows: rows)
        table.unbreakable = whole
        var rendered = table.renderRows(width: width)
        var under: [[String]] = Array(repeating: [], count: rendered.count)
        if let width, rendered.joined().contains(where: { displayWidth($0) > width }) {
            table = TextTable(header: header.filter { $0 != header[addressColumn] }, rows: rows.map { Self.without(addressColumn, $0) })
            table.unbreakable = [1]
            rendered = table.renderRows(width: width)
            under = [[]] + rows.map { row in TextWrap.hanging("addresses ", indent: 10, row[addressColumn], width: width - 2) }
        }
        var lines: [String] = []
        for (index, row) in rendered.enumerated() {
            lines += index == 0 ? row.map { terminal.paint($0, .bold) } : row
            lines += under[index].map { "  " + $0 }
            for warning in index == 0 ? [] : beacons[index - 1].warnings {
                lines += TextWrap.hanging("! ", indent: 2, warning, width: width.map { $0 - 2 }).map { "  " + terminal.paint($0, .yellow) }
            }
        }
        return lines
    }

    static func without(_ column: Int, _ row: [String]) -> [String] {
        var row = row
        row.remove(at: column)
        return row
    }

    /// The URL doctor and a node open (wss:// when TLS is advertised), else HOST:PORT without the
    /// root dot (no safe URL: the warning under the row says why); then the hosts the other paths
    /// name (`also studio.openclaw.internal`).
    static func row(_ beacon: GatewayBeacon) -> [String] {
        let addresses = beacon.addresses.isEmpty ? "-" : beacon.addresses.map(\.description).joined(separator: ", ")
        let reached = beacon.url.map { ([$0] + otherHosts(beacon).map { "also \($0)" }).joined(separator: " ") } ?? hostPort(beacon)
        return [beacon.instance.displayName, reached, addresses, tls(beacon.gateway), source(beacon)]
    }

    /// `host:port` as typed or as the SRV names it, without its root dot; an IPv6 literal in
    /// brackets ([::1]:9), as a URL writes it.
    static func hostPort(_ beacon: GatewayBeacon) -> String {
        guard let host = beacon.host else { return "-" }
        return beacon.port.map { Endpoint(host: host.withoutRootDot, port: $0).description } ?? host.withoutRootDot
    }

    /// The hosts the Gateway's sightings name that its URL does not (another path's, or its own
    /// when the URL had to take an address), without their root dot, each once.
    static func otherHosts(_ beacon: GatewayBeacon) -> [String] {
        let url = beacon.url?.lowercased()
        var seen = Set<String>()
        let hosts = ([beacon.host] + beacon.sightings.map(\.host)).compactMap { $0 }
        return hosts.filter { host in
            url?.contains("//\(host.key):") != true && url?.contains("//[\(host.key)]:") != true && seen.insert(host.key).inserted
        }.map(\.withoutRootDot)
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
package enum IssueLines {
    package static func lines(_ issues: [DiscoveryIssue], terminal: Terminal) -> [String] {
        issues.flatMap { issue -> [String] in
            let words = DiscoveryIssueText(issue)
            var lines = [terminal.paint("error", .red, stderr: true) + " (\(issue.source.rawValue)): \(words.message)"]
            if let fix = words.fix { lines.append("  fix: \(fix)") }
            return lines
        }
    }
}
