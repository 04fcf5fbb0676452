/// Findings as a check collects them, in bounded memory: the first `limit` of each severity
/// are kept (checks run in zone order, so those are the first lines), the rest only counted
/// and told in one finding. A zone of a million records with TTL 0 gives a readable report,
/// not a million lines and hundreds of megabytes of them.
struct FindingList {
    /// More than a person reads; few enough that a report of every check stays small.
    static let limit = 200

    private(set) var kept: [Finding] = []
    private var counts: [Finding.Severity: Int] = [:]

    mutating func append(_ finding: Finding) {
        counts[finding.severity, default: 0] += 1
        if counts[finding.severity, default: 0] <= Self.limit { kept.append(finding) }
    }

    static func += (list: inout FindingList, findings: some Sequence<Finding>) {
        for finding in findings { list.append(finding) }
    }

    /// What was kept, and for each severity past the limit one finding saying how many more.
    var findings: [Finding] {
        kept
            + [Finding.Severity.fail, .warn, .pass].compactMap { severity in
                let more = counts[severity, default: 0] - Self.limit
                guard more > 0 else { return nil }
                return Finding(severity, .notListed(more: more, of: severity, listed: Self.limit))

            }
    }
}
