import DNSSD

/// Owners (a merger's rows, remembered ids, doctor's groups) filed under the identity keys of
/// their beacons (`GatewayIdentity.keys`), so that a beacon is compared only with the few owners
/// that share a key with it, never with every other. Counted: an owner filed under one key by
/// two of its beacons stays filed there until both are taken out.
package struct IdentityIndex<Owner: Hashable & Comparable & Sendable>: Sendable {
    private var filed: [String: [Owner: Int]] = [:]

    package init() {}

    package mutating func file(_ owner: Owner, under keys: [String]) {
        for key in keys { filed[key, default: [:]][owner, default: 0] += 1 }
    }

    package mutating func unfile(_ owner: Owner, from keys: [String]) {
        for key in keys {
            filed[key]?[owner, default: 1] -= 1
            if filed[key]?[owner] == 0 { filed[key]?.removeValue(forKey: owner) }
            if filed[key]?.isEmpty == true { filed.removeValue(forKey: key) }
        }
    }

    /// The owners filed under any of `keys`, in order (the oldest row first, for a merger).
    package func candidates(sharing keys: [String]) -> [Owner] {
        Set(keys.flatMap { filed[$0].map { Array($0.keys) } ?? [] }).sorted()
    }
}

extension GatewayIdentity {
    /// `beacons` as Gateways: each group one Gateway's beacons, in the order first seen.
    package static func group(_ beacons: [GatewayBeacon]) -> [[GatewayBeacon]] {
        var groups: [[GatewayBeacon]] = []
        var index = IdentityIndex<Int>()
        for beacon in beacons {
            let keys = keys(beacon)
            let found = index.candidates(sharing: keys).first { groups[$0].contains { same($0, beacon) } }
            let group = found ?? groups.count
            if found == nil { groups.append([]) }
            groups[group].append(beacon)
            index.file(group, under: keys)
        }
        return groups
    }
}
