/// One result of `zone check`, from the linter, the comparison with a server or the checks of
/// the zone as served: a code for tests and scripts to match, and the words for a person.
public struct Finding: Sendable, Hashable, Codable {
    public enum Severity: String, Sendable, Codable, Comparable {
        case pass, warn, fail

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            [pass, warn, fail].firstIndex(of: lhs)! < [pass, warn, fail].firstIndex(of: rhs)!
        }
    }

    public let severity: Severity
    /// What was found, stable across releases (the message's wording is not).
    public let code: FindingCode
    /// The line in the file, when one record is to blame.
    public let line: Int?
    public let message: String
    public let fix: String?

    public init(_ severity: Severity, _ code: FindingCode, line: Int? = nil, _ message: String, fix: String? = nil) {
        self.severity = severity
        self.code = code
        self.line = line
        self.message = message
        self.fix = fix
    }

    /// `status`, as doctor's checks and preflight's requirements say it (clawnet.zonecheck.v3;
    /// v2 said `severity`).
    private enum CodingKeys: String, CodingKey {
        case severity = "status"
        case code, line, message, fix
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(severity, forKey: .severity)
        try container.encode(code, forKey: .code)
        try container.encode(line, forKey: .line)
        try container.encode(message, forKey: .message)
        try container.encode(fix, forKey: .fix)
    }
}
