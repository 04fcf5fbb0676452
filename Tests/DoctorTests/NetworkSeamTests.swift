import Foundation
import TestSupport
import Testing

/// Doctor reaches the network only through `DoctorIO`: no file of the Doctor module but
/// DoctorIO+Live.swift calls a live entry point (a probe, a name look-up, a discovery, a DNS
/// client). With the recorded network the in-process tests give it, doctor then opens no
/// socket and asks no daemon.
@Suite("doctor's network seam")
struct NetworkSeamTests {
    static let folder = packageRoot + "/Sources/Doctor"
    static let live = "Pipeline/DoctorIO+Live.swift"
    /// The calls that reach the network from the modules doctor imports.
    static let entries = [
        "GatewayProbe.run", "HostLookup.addresses", "AvahiHostLookup.addresses", "AvahiAddressLookup.names", "DNSClient(",
        "DiscoverySession.", "LiveDiscovery(", "ProbeConnection.",
    ]

    @Test("only DoctorIO+Live.swift calls the network's live entry points; it calls the ones doctor needs")
    func onlyLiveFileReachesTheNetwork() throws {
        let files = try #require(FileManager.default.subpaths(atPath: Self.folder)).filter { $0.hasSuffix(".swift") }
        #expect(files.contains(Self.live), "\(files)")
        var found: [String] = []
        for file in files where file != Self.live {
            let text = try String(contentsOfFile: "\(Self.folder)/\(file)", encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                found += Self.entries.filter { line.contains($0) }.map { "\(file):\(number + 1): \($0)" }
            }
        }
        #expect(found.isEmpty, "doctor reaches the network outside DoctorIO: \(found)")
        let live = try String(contentsOfFile: "\(Self.folder)/\(Self.live)", encoding: .utf8)
        let used = Self.entries.prefix(5).filter { !live.contains($0) }
        #expect(used.isEmpty, "DoctorIO.live no longer calls \(used): is this list out of date?")
    }
}
