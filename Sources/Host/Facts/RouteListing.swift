import DNSSD

/// The routing tables as `ip route` writes them, for `clawnet report`: `ip route show table all`
/// for each family (the policy tables too, Tailscale's 52 among them). Where `ip` is not
/// installed, the main tables from /proc/net/route and /proc/net/ipv6_route in the same words.
package enum RouteListing {
    static let tool = "/usr/sbin/ip"
    static let fallbackTool = "/sbin/ip"

    /// Both families, each under a heading that names where it came from. A blocking call.
    package static func text() -> String {
        var text = ""
        for (family, path) in [("-4", "/proc/net/route"), ("-6", "/proc/net/ipv6_route")] {
            let arguments = [family, "route", "show", "table", "all"]
            if let output = [tool, fallbackTool].lazy.compactMap({ SystemTool.output($0, arguments) }).first {
                text += "# ip \(arguments.joined(separator: " "))\n" + String(decoding: output, as: UTF8.self)
            } else if let table = RegularFile.text(path, limit: FileLimit.kernelTable) {
                let lines = family == "-4" ? ipv4Lines(table) : ipv6Lines(table)
                text += "# \(path) (ip is not installed), as ip route writes it\n" + lines.map { $0 + "\n" }.joined()
            } else {
                text += "# \(path): unreadable\n"
            }
        }
        return text
    }

    /// The kernel's route flags (linux/route.h).
    static let gatewayFlag: UInt32 = 0x2
    static let rejectFlag: UInt32 = 0x200

    /// `Iface Destination Gateway Flags RefCnt Use Metric Mask ...`, addresses as 8 hex digits in
    /// host byte order: `default via 10.0.0.1 dev eth0 metric 100`, `10.0.0.0/24 dev eth0`.
    static func ipv4Lines(_ table: String) -> [String] {
        table.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard fields.count >= 8, let destination = RoutingTable.hostOrder(fields[1]), let via = RoutingTable.hostOrder(fields[2]),
                let flags = UInt32(fields[3], radix: 16), let metric = Int(fields[6]), let mask = RoutingTable.hostOrder(fields[7]),
                let network = IPNetwork(destination, netmask: mask)
            else { return nil }
            let gateway = flags & gatewayFlag != 0 ? via : nil
            return words(network, via: gateway, device: fields[0], metric: metric, reject: flags & rejectFlag != 0)
        }
    }

    /// `dest plen src srcplen nexthop metric refcnt use flags iface`, hex in network order.
    static func ipv6Lines(_ table: String) -> [String] {
        table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, let destination = RoutingTable.networkOrder(fields[0]), let length = Int(fields[1], radix: 16),
                let network = IPNetwork(destination, prefixLength: length), let via = RoutingTable.networkOrder(fields[4]),
                let metric = UInt32(fields[5], radix: 16), let flags = UInt32(fields[8], radix: 16)
            else { return nil }
            let gateway = flags & gatewayFlag != 0 ? via : nil
            return words(network, via: gateway, device: fields[9], metric: Int(metric), reject: flags & rejectFlag != 0)
        }
    }

    static func words(_ network: IPNetwork, via: IPAddress?, device: Substring, metric: Int, reject: Bool) -> String {
        // A host route is its address alone, as ip writes it.
        let host = network.prefixLength == network.address.bytes.count * 8
        let destination = network.isDefault ? "default" : host ? network.address.description : network.description
        var words = [reject ? "unreachable" : nil, destination].compactMap { $0 }
        if let via { words += ["via", via.description] }
        words += ["dev", String(device)]
        if metric != 0 { words += ["metric", String(metric)] }
        return words.joined(separator: " ")
    }
}
