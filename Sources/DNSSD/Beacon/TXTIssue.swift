/// Something wrong with a TXT record, as a kind to decide on and a message to read.
public struct TXTIssue: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        // RFC 6763 §6: strings that are not attributes.
        case stringWithoutKey
        case keyNotPrintable
        case duplicateKey(String)
        case valueNotUTF8(String)
        // OpenClaw's keys (the interop notes' TXT table).
        case roleMissing
        case roleNotGateway
        case notAPort(key: String)
        case notAFlag(key: String)
        case fingerprintNotCanonical
        case fingerprintMalformed
        case fingerprintWithoutTLS
    }

    /// An error is a value a node cannot use at all (a port or a fingerprint that does not
    /// parse); a warning is a value it reads, or skips, with a shrug.
    public enum Severity: Sendable, Hashable {
        case warning, error
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var severity: Severity {
        switch kind {
        case .notAPort, .fingerprintMalformed: .error
        default: .warning
        }
    }

    public var description: String { message }
}
