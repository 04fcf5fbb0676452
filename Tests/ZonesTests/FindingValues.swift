import DNSSD
import DNSWire

@testable import Zones

extension Finding {
    /// The values the finding carries (names, counts, the parser's words), each as text, in
    /// order: what tests check a finding names, without its English (Output's FindingText).
    var values: [String] { Self.values(of: detail) }

    private static func values(of value: Any) -> [String] {
        switch value {
        case is String, is DNSName, is DomainName, is DNSServer, is Int, is UInt32, is UInt16, is RRType, is RCode, is Bool:
            return ["\(value)"]
        default:
            let children = Mirror(reflecting: value).children
            return children.isEmpty ? ["\(value)"] : children.flatMap { values(of: $0.value) }
        }
    }
}
