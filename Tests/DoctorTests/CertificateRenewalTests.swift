import DNSSD
import Foundation
import Host
import Testing

@testable import Discovery
@testable import Doctor
@testable import Output
@testable import Probes

/// Issue 31's renewal and issue 32 case 6 on a recorded network: a Gateway that renewed its
/// certificate (served: `Recorded.certificateSHA`) while a wide-area record keeps the one before
/// (`Recorded.otherSHA`) is one Gateway with a stale record; a pin older than a renewal its own
/// beacon advertises is a renewal, not an interception.
@Suite("a certificate renewed under a running Gateway")
struct CertificateRenewalTests {
    static let server = "192.168.1.53#53"

    static func txt(_ fingerprint: TLSFingerprint) -> [(key: String, value: String?)] {
        [("role", "gateway"), ("gatewayTls", "1"), ("gatewayTlsSha256", fingerprint.hex)]
    }

    /// The Gateway as mDNS (new fingerprint) and the zone (`zone`'s fingerprint) list it, merged as discovery merges it.
    static func renewed(zone: TLSFingerprint = Recorded.otherSHA) throws -> GatewayBeacon {
        let lan = Recorded.beacon(txt: txt(Recorded.certificateSHA))
        var wide = Recorded.beacon(source: .unicast, txt: txt(zone))
        wide.resolvers = [server]
        return try #require(BeaconMerger.merge([lan, wide], id: lan.id.description))
    }

    static func network(_ probed: String) -> RecordedNetwork {
        var answers = RecordedNetwork.Answers()
        answers.hosts["studio.local"] = .success([IPAddress("192.168.1.30")!])
        answers.probes[probed] = { Recorded.healthyReport($0) }
        answers.probes["ws://127.0.0.1:18789"] = { Recorded.refusedReport($0) }
        return RecordedNetwork(answers)
    }

    @Test("mDNS advertises the new certificate, the zone the old one: one Gateway, a stale record named with its server, a replace snippet")
    func staleZoneRecord() async throws {
        let row = try Self.renewed()
        var options = DoctorPipelineTests.options(local: true)
        options.discovery.domains = [Recorded.domain]
        let result = await DoctorPipelineTests.run(options, network: Self.network("wss://studio.local:18789"), found: [row])
        let ids = result.diagnosis.map(\.id)
        #expect(!ids.contains("multiple-gateways") && !ids.contains("pin-changed"), "one Gateway, no interception: \(ids)")
        let pin = try #require(result.gateways.first?.checks["gw.pin"])
        #expect(pin.status == .warn && pin.reason == .recordStale, "\(pin.status) \(pin.reason): \(pin.message)")
        let stale = try #require(result.diagnosis.first { $0.id == "stale-fingerprint-record" }, "\(ids)")
        let owner = #"Studio\032\(OpenClaw\)._openclaw-gw._tcp.openclaw.internal."#
        #expect(stale.cause.contains(owner) && stale.cause.contains(Self.server), "\(stale.cause)")
        #expect(stale.cause.contains("one Gateway") && !stale.fix.contains("restart the Gateway"), "\(stale.cause) / \(stale.fix)")
        #expect(stale.fix.contains(Recorded.certificateSHA.hex) && stale.fix.contains("openclaw.internal"), "\(stale.fix)")
        let snippet = try #require(result.snippets.first, "a snippet that replaces the record")
        #expect(
            snippet.reason == .stale && snippet.differences == [.fingerprint(published: Recorded.otherSHA, served: Recorded.certificateSHA)]
        )
        #expect(snippet.corefile == nil, "the zone is served already: no CoreDNS stanza")
        let update = try #require(snippet.update)
        #expect(update.contains("server 192.168.1.53 53") && update.contains("zone openclaw.internal."), "\(update)")
        let removes = "update delete \(owner) IN TXT"
        #expect(update.contains(removes) && update.contains("gatewayTlsSha256=\(Recorded.certificateSHA.hex)"), "\(update)")
        #expect(!update.contains("IN SRV") && !update.contains("IN A "), "only the TXT differs: \(update)")
        let lines = DoctorReport(result).snippetLines(Terminal(color: false))
        #expect(lines.contains { $0.contains("replace its records") } && lines.contains { $0.contains("nsupdate") }, "\(lines)")
    }

    @Test("the zone's record alone (no mDNS), its fingerprint not served, nothing confirming: a failure naming the record, never 'restart'")
    func unconfirmedRecord() async throws {
        var wide = Recorded.beacon(source: .unicast, txt: Self.txt(Recorded.otherSHA))
        wide.resolvers = [Self.server]
        var options = DoctorPipelineTests.options(local: false)
        options.discovery.domains = [Recorded.domain]
        let result = await DoctorPipelineTests.run(options, network: Self.network("wss://studio.local:18789"), found: [wide])
        let pin = try #require(result.gateways.first?.checks["gw.pin"])
        #expect(pin.status == .fail && pin.reason == .advertisedMismatch && !(pin.fix ?? "").contains("restart"), "\(pin.fix ?? "")")
        let stale = try #require(result.diagnosis.first { $0.id == "stale-fingerprint-record" }, "\(result.diagnosis.map(\.id))")
        #expect(stale.cause.contains("TLS-terminating proxy") && stale.fix.contains(Self.server) == false, "\(stale.cause) / \(stale.fix)")
        #expect(stale.cause.contains(Self.server), "\(stale.cause)")
        #expect(result.snippets.isEmpty, "an unconfirmed certificate is never written into the zone")
    }

    @Test(
        "a node pinned (gateway.remote.tlsFingerprint) to the certificate before; the beacon advertises the one served: a renewal, re-pin")
    func nodePinBeforeRenewal() async throws {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.node.mode = .remote
        system.openclaw.node.remoteURL = try EndpointSpec(parsing: "wss://studio.local:18789")
        system.openclaw.node.remoteTLSFingerprint = Recorded.otherSHA
        let beacon = Recorded.beacon(txt: Self.txt(Recorded.certificateSHA))
        let network = Self.network("wss://studio.local:18789")
        let result = await DoctorPipelineTests.run(DoctorPipelineTests.options(), system: system, network: network, found: [beacon])
        let ids = result.diagnosis.map(\.id)
        let renewed = try #require(result.diagnosis.first { $0.id == "certificate-renewed" }, "\(ids)")
        #expect(!ids.contains("pin-changed") && !ids.contains("edge-certificate"), "a renewal, not an interception: \(ids)")
        #expect(renewed.cause.contains("not an interception") && renewed.cause.contains("no token was sent"), "\(renewed.cause)")
        #expect(
            renewed.fix.contains("openclaw config set gateway.remote.tlsFingerprint sha256:\(Recorded.certificateSHA.hex)"),
            "\(renewed.fix)")
    }

    @Test(
        "a node pin that fails while no beacon advertises the certificate served: pin-changed, its fix names gateway.remote.tlsFingerprint"
    )
    func nodePinUnconfirmed() async throws {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.node.mode = .remote
        system.openclaw.node.remoteURL = try EndpointSpec(parsing: "wss://studio.local:18789")
        system.openclaw.node.remoteTLSFingerprint = Recorded.otherSHA
        let beacon = Recorded.beacon(txt: Recorded.tlsTXT)
        let network = Self.network("wss://studio.local:18789")
        let result = await DoctorPipelineTests.run(DoctorPipelineTests.options(), system: system, network: network, found: [beacon])
        let ids = result.diagnosis.map(\.id)
        #expect(!ids.contains("certificate-renewed") && ids.contains("pin-changed"), "\(ids)")
        let pin = try #require(result.gateways.first?.checks["gw.pin"])
        #expect(pin.fix?.contains("gateway.remote.tlsFingerprint sha256:\(Recorded.certificateSHA.hex)") == true, "\(pin.fix ?? "")")
    }
}
