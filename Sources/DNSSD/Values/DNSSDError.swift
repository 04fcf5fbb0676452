/// Why a piece of DNS-SD text or data was rejected: `code` names what was malformed, for code
/// and tests to decide on; `message` is meant for the user as is.
public struct DNSSDError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was malformed. Stable: tests and callers match these, never the message.
    package enum Code: String, Sendable, Hashable, CaseIterable {
        /// A TXT character-string: longer than 255 bytes, or cut short on the wire.
        case txtString
        /// A TXT key: empty, or not printable ASCII without '='.
        case txtKey
        /// A Gateway's address as a URL or HOST:PORT (brackets, host, ambiguity).
        case endpoint
        /// A URL scheme other than ws:// or wss://.
        case scheme
        case port
        case instanceName
        /// A `\X` or `\DDD` escape in presentation form.
        case escape
        /// A DNS name: empty, an empty label, or past the 63- and 255-byte limits.
        case name
        /// A domain given on the command line or in the config.
        case domain
        case dnsServer
        case serviceType
        /// A `--gateway KEY=VALUE,...` spec.
        case gatewaySpec
        /// A command-line TARGET (URL, HOST[:PORT] or name).
        case target
        case address
        case fingerprint
        /// A browser Origin (`--origin`): http(s)://host[:port] of visible ASCII.
        case origin
        /// A `--check` name that is not one of doctor's checks.
        case check
        /// A TSIG key file that cannot be used (its message never holds the secret).
        case tsigKey
        case duration
        /// A file to write that is not a regular file or a new path.
        case outputPath
        /// A file named to be read that is not there.
        case inputPath
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
