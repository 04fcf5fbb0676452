/// Something wrong with a TXT record, as a kind to decide on and a message to read.
public struct TXTIssue: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
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
    package enum Severity: Sendable, Hashable {
        case warning, error
    }

    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var severity: Severity {
        switch kind {
        case .notAPort, .fingerprintMalformed: .error
        default: .warning
        }
    }

    public var description: String { message }
}
