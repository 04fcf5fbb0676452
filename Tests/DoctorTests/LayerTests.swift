import Avahi
import DNSSD
import Discovery
import Testing

@testable import Doctor
@testable import Probes

/// The layer table, the one statement of what needs what: its order, and the skips read from it.
@Suite("The layer table and its skips")
struct LayerTests {
    @Test("each layer comes after the layers it needs, which are known; connection layers name what the layers above lack")
    func table() {
        for (index, layer) in Layer.all.enumerated() {
            let before = Set(Layer.all.prefix(index).map(\.id))
            #expect(layer.needs.allSatisfy(before.contains), "\(layer.id) needs \(layer.needs), not all before it")
            if layer.isConnection { #expect(layer.lacking != nil, "\(layer.id) is part of the connection but names no lack") }
        }
        #expect(Set(Layer.all.map(\.id)).count == Layer.all.count, "one row per check")
    }

    /// The reasons of a Gateway's skipped checks, by check.
    static func skips(_ report: ProbeReport) -> [CheckID: CheckReason] {
        let checks = GatewayChecks.run(Recorded.evidence(report))
        return Dictionary(uniqueKeysWithValues: checks.filter { $0.status == .skip }.map { ($0.id, $0.reason) })
    }

    static func reportWith(_ webSocket: WebSocketOutcome?) -> ProbeReport {
        var report = Recorded.healthyReport()
        report.websocket = webSocket.map { PhaseTiming(outcome: $0, elapsed: .zero) }
        report.connect = nil
        return report
    }

    @Test("the connection's lowest failure is named by every layer above; past it, the layer right below")
    func gatewaySkips() {
        let above = Array(CheckID.gateway.dropFirst(2))
        #expect(Self.skips(Recorded.refusedReport(Recorded.target())) == Dictionary(uniqueKeysWithValues: above.map { ($0, .needsTCP) }))
        let noTLS = Self.skips(Recorded.healthyReport(tls: .alert(TLSAlert(code: 70))))
        #expect(noTLS == Dictionary(uniqueKeysWithValues: above.dropFirst().map { ($0, .needsTLS) }), "\(noTLS)")
        #expect(Self.skips(Self.reportWith(.upgradeRefused(status: 200))) == [.gwProtocol: .needsWebSocket, .gwConnect: .needsChallenge])
        #expect(Self.skips(Self.reportWith(nil)) == [.gwWebSocket: .notRun, .gwProtocol: .notRun, .gwConnect: .notRun])
        let unexpected = FirstFrame(text: "{}", content: .unexpected(problem: "not an event"))
        #expect(Self.skips(Self.reportWith(.opened(unexpected, closedCleanly: true))) == [.gwConnect: .needsChallenge])
        let plain = Self.skips(Recorded.healthyReport(Recorded.target(tls: false)))
        #expect(plain == [.gwTLS: .plainGateway, .gwPin: .noCertificate, .gwCert: .noCertificate], "\(plain)")
    }

    @Test("TLS 1.2 fails gw.tls but still gives a session: nothing above it is skipped")
    func failedButDelivered() {
        #expect(Self.skips(Recorded.healthyReport(tls: .established(Recorded.tlsFacts(version: .tls12)))).isEmpty)
    }

    @Test("the machine: no bus skips avahi-daemon and what needs it; mDNS not checked passes on above a missing bus")
    func machineSkips() {
        var system = RecordedSystem()
        system.busExists = false
        system.avahiStatus = .unavailable(DiscoveryIssue(source: .mdns, kind: .daemonMissing, .eventLoopFailed))
        let facts = MachineFacts.gather(system)
        let checks = MachineChecks.run(facts, discovery: Recorded.discovery())
        #expect(checks[.mdnsDaemon]?.reason == .needsBus && checks[.mdnsBrowse]?.reason == .needsDaemon)
        let unchecked = MachineChecks.run(facts, discovery: Recorded.discovery(local: false), multicast: false)
        let mdns: [CheckID] = [.mdnsDBus, .mdnsDaemon, .mdnsInterfaces, .mdnsPort5353, .mdnsNSS, .mdnsBrowse]
        #expect(mdns.allSatisfy { unchecked[$0]?.reason == .localNotBrowsed }, "\(unchecked.map { "\($0.id) \($0.reason)" })")
    }
}
