import DNSSD
import Foundation
import Testing

@testable import Probes

/// OpenClaw 2 at the connect level, in memory: the stand-in's 2026.9 answers read back as doctor
/// reads them, the retries OpenClaw's clients make, and the stand-in's rules (client lists, v2
/// signatures, the 2-minute window, the rate limit, the answers after hello-ok).
@Suite("OpenClaw 2 connect answers and the stand-in (in memory)")
struct OpenClaw2ConnectTests {
    static let now: Int64 = 1_700_000_000_000

    /// The stand-in's answer to `request`, read as doctor reads it, with the close that follows.
    func answer(_ connect: StandInConnect, _ request: ConnectRequest = ConnectRequest(id: "r", credentials: .none), nowMs: Int64 = now)
        -> (outcome: ConnectOutcome?, reply: StandInConnect.Reply)
    {
        let text = String(decoding: request.frame(nonce: "n1", signedAtMs: Self.now), as: UTF8.self)
        let reply = connect.reply(to: text, nonce: "n1", nowMs: nowMs, remote: "10.98.0.2")
        return (reply.frames.first.flatMap { ConnectAnswer.read($0, requestId: request.id) }, reply)
    }

    func error(_ outcome: ConnectOutcome?) -> ConnectError? {
        if case .rejected(let error, _)? = outcome { return error }
        return nil
    }

    static let codes: [(StandInConnect.Outcome, ConnectError.DetailCode?, UInt16?)] = [
        (.rateLimited, .authRateLimited, 1008), (.operatorAccessDenied, .operatorAccessDenied, 1008),
        (.verifiedUserRequired, .verifiedUserRequired, 1008), (.tailscaleIdentityMissing, .tailscaleIdentityMissing, 1008),
        (.tailscaleProxyMissing, .tailscaleProxyMissing, 1008), (.tailscaleWhoisFailed, .tailscaleWhoisFailed, 1008),
        (.tailscaleIdentityMismatch, .tailscaleIdentityMismatch, 1008), (.identityHeaderRequired, .identityHeaderRequired, 1008),
        (.protocolMismatch, .protocolMismatch, 1002), (.pairingRejected, .pairingRequired, 4008), (.restarting, nil, 1012),
        (.close1009, nil, 1009), (.close1012, nil, 1012),
    ]

    @Test("each OpenClaw 2 outcome of the stand-in: the detail code doctor reads and the close that follows", arguments: codes)
    func outcomeCodes(outcome: StandInConnect.Outcome, code: ConnectError.DetailCode?, close: UInt16?) {
        let (read, reply) = answer(StandInConnect(outcome: outcome))
        #expect(error(read)?.detailCode == code, "\(outcome): \(reply.frames)")
        #expect(reply.close?.code == close, "\(outcome): \(String(describing: reply.close))")
    }

    @Test("a 2026.9 protocol mismatch names the Gateway's version, its probe floor and build: a v5 Gateway is newer than the node")
    func mismatchDetails() throws {
        let refused = try #require(error(answer(StandInConnect(outcome: .protocolMismatch)).outcome))
        #expect(refused.isProtocolMismatch && refused.expectedProtocol == 5 && refused.minimumProbeProtocol == 5)
        #expect(refused.gatewayBuildId == "clawnet-stand-in-2026.9" && refused.reloadRequired == nil)
        #expect(ProtocolRange.probe.older(than: 5, minimum: 5) == .client)
        #expect(ProtocolRange.probe.older(than: 5, minimum: 4) == .neither, "a probe floor inside the range: refused for another rule")
        #expect(ProtocolRange.node.older(than: 3) == .gateway)
        // 2026.5.18's probe floor was 4: a probe of v3 only is refused there, taken by 2026.9.
        let v3 = ConnectRequest(id: "r", credentials: .none).again(range: ProtocolRange(min: 3, max: 3))
        var spring = StandInConnect()
        spring.release = .may2026
        #expect(error(answer(spring, v3).outcome)?.minimumProbeProtocol == 4)
        #expect(error(answer(StandInConnect(), v3).outcome)?.isProtocolMismatch != true)
    }

    @Test("restart-unavailable.ts: draining and close 1012/1013 are asked again like a start; AUTH_RATE_LIMITED never is")
    func retries() throws {
        for drain in GatewayPause.Drain.allCases {
            let refused = try #require(
                error(
                    answer(StandInConnect(outcome: StandInConnect.Outcome(rawValue: drain.rawValue.replacing("gateway-", with: ""))!))
                        .outcome))
            #expect(refused.pause == .draining(drain, retryAfterMs: 1000), "\(drain)")
            let plan = ConnectRetry.next(
                after: [ConnectTry(range: .probe, outcome: .rejected(refused, close: nil), waited: .zero)], remaining: .seconds(3))
            #expect(plan?.delay == .seconds(1), "\(drain)")
        }
        for code: UInt16 in [1012, 1013] {
            let closed = ConnectTry(range: .probe, outcome: .closed(CloseFrame(code: code, reason: "")), waited: .zero)
            #expect(ConnectRetry.next(after: [closed], remaining: .seconds(3))?.delay == .seconds(1), "close \(code)")
        }
        let limited = try #require(error(answer(StandInConnect(outcome: .rateLimited)).outcome))
        #expect(limited.retryAfterMs == 300_000 && limited.recommendedNextStep == .waitThenRetry)
        let device = ConnectTry(range: .node, asDevice: true, outcome: .rejected(limited, close: nil), waited: .zero)
        #expect(ConnectRetry.next(after: [device], remaining: .seconds(60)) == nil, "never retried into a lockout")
    }

    @Test("auto: 10 failed tokens from one address in a minute lock it out for 5 minutes; loopback is exempt")
    func rateLimit() throws {
        let connect = StandInConnect(token: GatewayToken("right", source: "t"))
        let wrong = ConnectRequest(id: "r", credentials: ConnectCredentials(token: GatewayToken("wrong", source: "t")))
        for attempt in 0..<10 {
            #expect(error(answer(connect, wrong, nowMs: Self.now + Int64(attempt)).outcome)?.detailCode == .authTokenMismatch)
        }
        let locked = try #require(error(answer(connect, wrong, nowMs: Self.now + 1000).outcome))
        #expect(locked.detailCode == .authRateLimited && (locked.retryAfterMs ?? 0) > 290_000, "\(locked)")
        let text = String(decoding: wrong.frame(nonce: "n1"), as: UTF8.self)
        for _ in 0..<12 { _ = connect.reply(to: text, nonce: "n1", nowMs: Self.now, remote: "127.0.0.1") }
        #expect(
            connect.reply(to: text, nonce: "n1", nowMs: Self.now, remote: "127.0.0.1").frames.first?.contains("AUTH_TOKEN_MISMATCH") == true
        )
    }

    @Test("connect-device-proof.ts: a v2 signature is taken beside v3; 2026.9 allows 2 minutes of skew, 2026.5 ten")
    func signatures() throws {
        let device = DeviceIdentity.generate()
        let payload = ConnectRequest.devicePayloadV2(
            deviceId: device.deviceId, clientId: "cli", clientMode: "cli", role: "operator", scopes: [], signedAtMs: Self.now, token: nil,
            nonce: "n1")
        func request(signedAt: Int64) -> String {
            #"{"type":"req","id":"r","method":"connect","params":{"minProtocol":4,"maxProtocol":4,"role":"operator","scopes":[],"#
                + #""client":{"id":"cli","mode":"cli","version":"1","platform":"linux"},"device":{"id":"\#(device.deviceId)","#
                + #""publicKey":"\#(device.publicKey)","signature":"\#(device.sign(payload))","signedAt":\#(signedAt),"nonce":"n1"}}}"#
        }
        let paired = StandInConnect(pairedDevices: [device.deviceId])
        #expect(paired.reply(to: request(signedAt: Self.now), nonce: "n1", nowMs: Self.now).loggedIn, "v2 taken")
        let late = Self.now + 3 * 60_000
        #expect(paired.reply(to: request(signedAt: Self.now), nonce: "n1", nowMs: late).frames.first?.contains("SIGNATURE_EXPIRED") == true)
        var spring = paired
        spring.release = .may2026
        #expect(spring.reply(to: request(signedAt: Self.now), nonce: "n1", nowMs: late).loggedIn, "2026.5: 10 minutes")
    }

    @Test("a client id or mode outside OpenClaw's lists, or none: invalid connect params and close 1008 \"invalid handshake\"")
    func clientLists() {
        for (client, problem) in [
            (
                #""client":{"id":"my-bot","mode":"cli","version":"1","platform":"linux"},"#,
                "at /client/id: must be equal to one of the allowed values"
            ),
            (
                #""client":{"id":"CLI","mode":"agent","version":"1","platform":"linux"},"#,
                "at /client/mode: must be equal to one of the allowed values"
            ),
            ("", "at root: must have required property 'client'"),
        ] {
            let text = #"{"type":"req","id":"r","method":"connect","params":{\#(client)"minProtocol":3,"maxProtocol":4}}"#
            let reply = StandInConnect(outcome: .helloOk).reply(to: text, nonce: "n", nowMs: 0)
            let read = reply.frames.first.flatMap { ConnectAnswer.read($0, requestId: "r") }
            #expect(error(read)?.message == "invalid connect params: \(problem)", "\(reply.frames)")
            #expect(reply.close?.code == 1008 && reply.close?.reason == "invalid handshake")
        }
    }

    @Test("2026.9 announces a pairing decision on the kept-open refusal; doctor's exchange reads it as PAIRING_REJECTED / EXPIRED")
    func pairingDecision() throws {
        for (outcome, code) in [
            (StandInConnect.Outcome.pairingRejected, ConnectError.DetailCode.pairingRejected), (.pairingExpired, .pairingExpired),
        ] {
            let (read, reply) = answer(StandInConnect(outcome: outcome))
            let refused = try #require(error(read))
            #expect(refused.pairing?.waitForResolution == true)
            let requestId = try #require(refused.requestId)
            let decision = try #require(reply.frames.dropFirst().first.flatMap { ConnectAnswer.resolution($0, requestId: requestId) })
            let resolved = refused.resolved(decision)
            #expect(resolved.detailCode == code && resolved.code == .notPaired, "\(outcome)")
            #expect(ConnectAnswer.resolution(reply.frames[1], requestId: "another") == nil, "another request's decision is not ours")
        }
        var spring = StandInConnect(outcome: .pairingRejected)
        spring.release = .may2026
        #expect(answer(spring).reply.close?.code == 1008, "2026.5 announces nothing")
    }

    @Test("after hello-ok: health, status and system-presence answered, any other method refused as unknown; hello-ok's tick interval")
    func methods() throws {
        for method in StandInMethods.answered {
            let answer = try #require(StandInMethods.answer(#"{"type":"req","id":"q","method":"\#(method)","params":{}}"#))
            #expect(answer.contains(#""ok":true"#), "\(method): \(answer)")
        }
        let unknown = try #require(StandInMethods.answer(#"{"type":"req","id":"q","method":"chat.send"}"#))
        #expect(unknown.contains("unknown method: chat.send") && unknown.contains(#""ok":false"#))
        #expect(StandInMethods.answer(#"{"type":"event","event":"x"}"#) == nil)
        var connect = StandInConnect(outcome: .helloOk)
        connect.tickInterval = .seconds(2)
        guard case .helloOk(let hello)? = answer(connect).outcome else {
            Issue.record("no hello-ok")
            return
        }
        #expect(hello.tickIntervalMs == 2000 && hello.tickInterval == .seconds(2))
    }
}
