import DNSSD
import Probes

/// What a machine failure means depends on what was asked: explicitly named targets may not
/// depend on it (the relaxations of one Gateway's checks are `GatewayJudgement`'s).
extension Doctor {
    /// With explicit targets, a machine check that fails but that no target depends on is a
    /// warning (the targets decide the exit code).
    static func relaxUnneeded(_ checks: [Check], needed: Set<CheckID>) -> [Check] {
        checks.map { check in
            guard check.status == .fail, !needed.contains(check.id) else { return check }
            var relaxed = check
            relaxed.status = .warn
            return relaxed
        }
    }

    /// The machine checks the given targets need: mDNS for Gateways found by mDNS, the
    /// resolver and the domain for Gateways found by DNS-SD or given by name.
    static func dependencies(of gateways: [GatewayResult]) -> Set<CheckID> {
        var needed = Set<CheckID>()
        for gateway in gateways {
            if let beacon = gateway.beacon {
                if beacon.sources.contains(.mdns) { needed.formUnion([.mdnsDBus, .mdnsDaemon, .mdnsInterfaces, .mdnsBrowse]) }
                if beacon.sources.contains(.unicast) { needed.formUnion([.dnsResolver, .dnsWideArea]) }
            } else if IPAddress(gateway.target.host) == nil {
                needed.insert(.dnsResolver)
            }
        }
        return needed
    }
}
