import CAvahi
import DNSSD

/// What a browse says when Avahi refuses or fails it (Output's `DiscoveryIssueText` words it).
extension AvahiBrowseSession {
    /// Said in the last place of the C boundary's buffer, when it is full (`bufferLimit`).
    static let fellBehind = DiscoveryIssue(source: .mdns, kind: .browseFailed, .fellBehind(events: bufferLimit))

    static func browseRefused(_ type: ServiceType, code: Int32) -> DiscoveryIssue {
        DiscoveryIssue(source: .mdns, kind: .browseFailed, .browseRefused(type: type.name, error: AvahiDiagnosis.message(for: code)))
    }

    static func browseFailed(_ type: ServiceType, code: Int32) -> DiscoveryIssue {
        DiscoveryIssue(source: .mdns, kind: .browseFailed, .browseFailed(type: type.name, error: AvahiDiagnosis.message(for: code)))
    }

    /// `objects`: the browsers and resolvers the client holds.
    static func tooManyObjects(_ key: MulticastInstanceKey, objects: Int) -> DiscoveryIssue {
        DiscoveryIssue(
            source: .mdns, kind: .resolveFailed, .tooManyObjects(instance: key.name.displayName, type: key.type.name, objects: objects))
    }

    /// Instances no resolve answered for: counted, with a few names as examples (a flood would
    /// otherwise fill the terminal).
    static func unresolved(_ keys: [MulticastInstanceKey]) -> DiscoveryIssue {
        let names = keys.map(\.name.displayName).sorted()
        return DiscoveryIssue(
            source: .mdns, kind: .resolveFailed, .unresolved(instances: names.count, examples: Array(names.prefix(unresolvedExamples))))
    }

    static let unresolvedExamples = 3
}
