/// Why a piece of DNS-SD text or data was rejected. The message is meant for the user as is.
public struct DNSSDError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
