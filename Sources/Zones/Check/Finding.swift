/// One result of `zone check`, from the linter, the comparison with a server or the checks of
/// the zone as served: a code for tests and scripts to match, and the values Output's
/// `FindingText` makes the words from.
public struct Finding: Sendable, Hashable {
    package enum Severity: String, Sendable, Codable, Comparable {
        case pass, warn, fail

        package static func < (lhs: Severity, rhs: Severity) -> Bool {
            [pass, warn, fail].firstIndex(of: lhs)! < [pass, warn, fail].firstIndex(of: rhs)!
        }
    }

    package let severity: Severity
    /// The line in the file, when one record is to blame.
    package let line: Int?
    /// What was found, with its values.
    package let detail: Detail

    package init(_ severity: Severity, line: Int? = nil, _ detail: Detail) {
        self.severity = severity
        self.line = line
        self.detail = detail
    }

    /// What was found, stable across releases (the message's wording is not).
    package var code: FindingCode { detail.code }
}
