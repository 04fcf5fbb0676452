import DNSClient
import DNSSD
import DNSUpdate
import DNSWire
import TestSupport
import Testing

/// Issue 18 (a third outside attack): an answer is the UPDATE's answer only with its id, QR,
/// opcode UPDATE and (when copied) its zone. A server that sends back the id with opcode QUERY
/// and NOERROR had a withdrawal print "withdrawn".
@Suite("UPDATE answers that are not answers to the UPDATE", .testBed)
struct UpdateAnswerTests {
    @Test("the UPDATE's id with opcode QUERY and NOERROR: a transport failure, never a success")
    func queryOpcode() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let peer = try bed.spawn(
            on: .node, [bed.python, bed.scripts + "/peers/hostile_peer.py", "query-answer", "--address", "127.0.0.1", "--port", "\(port)"])
        defer { peer.terminate() }
        try await peer.waitForOutput("ready")
        let zone = try DNSName(presentation: "openclaw.internal.")
        let host = try DNSName(presentation: "studio.openclaw.internal.")
        let server = DNSServer(address: try #require(IPAddress("127.0.0.1")), port: port)
        let sender = UpdateSender(server: server, key: nil, timeout: .seconds(10))
        let change = ChangeSet(zone: zone, prerequisites: [], updates: [.deleteRRset(host, .a)])
        do {
            try await sender.send(change)
            Issue.record("an answer with opcode QUERY was taken for the UPDATE's success")
        } catch {
            #expect(error.reason == .transport, "\(error)")
            #expect(error.message.contains("answered another message than the UPDATE"), "\(error.message)")
        }
    }
}
