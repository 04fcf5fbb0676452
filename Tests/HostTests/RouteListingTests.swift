import Foundation
import TestSupport
import Testing

@testable import Host

/// routes.txt as `ip route` writes it: from `ip` itself, or, where it is missing, the kernel's
/// tables in the same words, held here to recorded tables and to iproute2 on this machine.
@Suite("clawnet report: routes as ip route writes them")
struct RouteListingTests {
    @Test("recorded /proc/net/route and ipv6_route tables in ip's words")
    func recordedTables() {
        let v4 = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            eth0\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0
            eth0\t0000000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            eth0\t0064A8C0\t00000000\t0201\t0\t0\t0\t00FFFFFF\t0\t0\t0
            """
        #expect(
            RouteListing.ipv4Lines(v4) == [
                "default via 10.0.0.1 dev eth0 metric 100", "10.0.0.0/24 dev eth0", "unreachable 192.168.100.0/24 dev eth0",
            ], "\(RouteListing.ipv4Lines(v4))")
        let zero = String(repeating: "0", count: 32)
        let v6 = """
            \(zero) 00 \(zero) 00 fe800000000000000000000000000001 00000400 00000001 00000000 00000003     eth0
            fd7a115ca1e000000000000000000000 30 \(zero) 00 \(zero) 00000100 00000001 00000000 00000001 tailscale0
            """
        #expect(
            RouteListing.ipv6Lines(v6) == ["default via fe80::1 dev eth0 metric 1024", "fd7a:115c:a1e0::/48 dev tailscale0 metric 256"],
            "\(RouteListing.ipv6Lines(v6))")
    }

    @Test("this machine's IPv4 table: each route as ip route shows it (destination, via, dev)")
    func againstIPRoute() async throws {
        let table = try #require(RegularFile.text("/proc/net/route", limit: FileLimit.kernelTable))
        let ip = try await runCommand("/usr/sbin/ip", ["-4", "route", "show", "table", "main"])
        #expect(ip.status == 0, "\(ip.stderr)")
        let shown = ip.stdout.split(separator: "\n").map(String.init)
        for line in RouteListing.ipv4Lines(table) {
            let words = line.split(separator: " ").map(String.init)
            let destination = words[0] == "unreachable" ? words[1] : words[0]
            let device = words[(words.firstIndex(of: "dev") ?? 0) + 1]
            let match = shown.first { $0.split(separator: " ").map(String.init).contains(destination) && $0.contains("dev \(device)") }
            #expect(match != nil, "\(line) not in ip route's \(shown)")
            if let via = words.firstIndex(of: "via").map({ words[$0 + 1] }) { #expect(match?.contains("via \(via)") == true, "\(line)") }
        }
    }
}
