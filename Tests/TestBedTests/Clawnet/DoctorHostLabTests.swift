import Foundation
import TestSupport
import Testing

/// The lab LAN again (serialized with the other lab tests): OpenClaw's own mDNS advertiser
/// beside avahi-daemon, end to end. The Gateway's bonjour plugin is a Node.js process
/// (@homebridge/ciao) bound to UDP 5353 with SO_REUSEADDR next to Avahi; a real `node` process
/// that binds and joins 224.0.0.251 the same way stands in for it, on lnode only, sending nothing.
extension DoctorLabTests {
    /// Binds UDP 5353 as ciao does (reuseAddr, the mDNS group on the interface whose address is
    /// its argument), says so, and waits.
    static let nodeResponder = """
        const socket = require('dgram').createSocket({ type: 'udp4', reuseAddr: true });
        socket.bind(5353, () => { socket.addMembership('224.0.0.251', process.argv[1]); console.log('bound 5353'); });
        setTimeout(() => process.exit(0), 60000);
        """

    @Test("openclaw#72147: a node process (OpenClaw's bonjour responder) holds UDP 5353 beside avahi-daemon: two-mdns-stacks names it")
    func openclaw72147OwnAdvertiserBesideAvahi() async throws {
        let bed = try TestBed.current()
        let responder = try bed.spawn(on: .lnode, ["node", "-e", Self.nodeResponder, bed.ip(.lnode)])
        var failure: (any Error)?
        do {
            try await responder.waitForOutput("bound 5353", timeout: .seconds(20))
            let result = try await bed.clawnet(["doctor", "--format", "json", "--check", "mdns.port5353"], on: .lnode)
            let document = try jsonObject(result.stdout)
            let check = try #require(checks(document).first { $0["id"] as? String == "mdns.port5353" }, "\(result.stdout)")
            let message = check["message"] as? String ?? ""
            #expect(check["status"] as? String == "warn" && message.contains("node (pid \(responder.pid))"), "\(message)")
            #expect(message.contains("OpenClaw's own mDNS advertiser"), "\(message)")
            #expect((check["fix"] as? String)?.contains("openclaw plugins disable bonjour") == true, "\(check)")
            #expect(diagnosisIDs(document) == ["two-mdns-stacks"], "\(result.stdout)")
        } catch {
            failure = error
        }
        _ = try? await responder.stop()
        if let failure { throw failure }
    }
}
