import DNSSD
import DNSUpdate
import DNSWire
import Testing

@testable import Output

/// What `zone push` says it changes: a TXT value it removes at an instance it writes is named,
/// as a host's replaced addresses are, whoever wrote it.
@Suite("zone push: the words of a planned change")
struct ZonePushLinesTests {
    @Test("zone push names each TXT value it removes at its own instance, escaped")
    func pushNamesRemovedTXT() throws {
        let instance = try DNSName(presentation: #"Studio\032\(OpenClaw\)._openclaw-gw._tcp.openclaw.internal."#)
        let change = PlannedChange(
            name: instance, kind: .changed([.txt]), txtRemoved: [Array("note=keep".utf8), Array("gatewayTlsSha256=\u{202E}ab".utf8)])
        #expect(
            ZonePushLines.describe(change) == #"~ Studio (OpenClaw): TXT; removes TXT "note=keep", "gatewayTlsSha256=\226\128\174ab""#,
            "\(ZonePushLines.describe(change))")
        #expect(ZonePushLines.describe(PlannedChange(name: instance, kind: .changed([.srv]))) == "~ Studio (OpenClaw): SRV")
    }
}
