import DNSSD
import Foundation
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import Probes

/// The connect request, the Gateway's answers as OpenClaw shapes them, the stand-in's
/// decisions, and the exchange handler on an EmbeddedChannel. No peer needed.
@Suite("Connect handshake (in memory)")
struct ConnectTests {
    func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test("the probe's request: client cli in probe mode, operator.read, no device; the token only when given")
    func probeRequest() throws {
        let bare = try json(ConnectRequest(id: "r1", credentials: .none).frame(nonce: "n0nce"))
        #expect(bare["type"] as? String == "req" && bare["id"] as? String == "r1" && bare["method"] as? String == "connect")
        let params = try #require(bare["params"] as? [String: Any])
        // A probe offers 3...4 as OpenClaw's probe does (MIN_PROBE_PROTOCOL_VERSION...PROTOCOL_VERSION).
        #expect(params["minProtocol"] as? Int == 3 && params["maxProtocol"] as? Int == 4)
        #expect(params["role"] as? String == "operator" && params["scopes"] as? [String] == ["operator.read"])
        let client = try #require(params["client"] as? [String: Any])
        #expect(client["id"] as? String == "cli" && client["mode"] as? String == "probe" && client["platform"] as? String == "linux")
        #expect(params["device"] == nil && params["auth"] == nil, "a tokenless probe shows nothing the Gateway could store")

        let token = try #require(GatewayToken("s3cret-token", source: "--token-file t"))
        let withToken = try json(ConnectRequest(id: "r2", credentials: ConnectCredentials(token: token)).frame(nonce: "n"))
        #expect((withToken["params"] as? [String: Any])?["auth"] as? [String: String] == ["token": "s3cret-token"])
        #expect("\(token)" == "the token from --token-file t" && !"\(token)".contains("s3cret"))
        #expect(String(reflecting: token) == "the token from --token-file t")
    }

    @Test("the probe's frame is written directly, byte for byte as JSONEncoder writes it; what needs escaping goes to the encoder")
    func probeFrameBytes() throws {
        let plain = GatewayToken("s3cret/token+=", source: "t")
        let odd = GatewayToken("a\"b\\c\u{1}\u{7F}é", source: "t")
        var legacy = ConnectRequest(id: "r/1", credentials: ConnectCredentials(token: plain))
        legacy.range = .legacyNode
        let written = [ConnectRequest(credentials: .none), ConnectRequest(id: "r0", credentials: ConnectCredentials(token: plain)), legacy]
        for request in written {
            let direct = try #require(request.probeFrame(), "\(request.id) is written directly")
            let encoded = request.encodedFrame(nonce: "n", signedAtMs: 0)
            #expect(
                direct == encoded,
                "written:\n\(String(decoding: direct, as: UTF8.self))\nencoded:\n\(String(decoding: encoded, as: UTF8.self))")
        }
        let escaped = [
            ConnectRequest(id: "r\"2", credentials: .none), ConnectRequest(id: "r3", credentials: ConnectCredentials(token: odd)),
        ]
        for request in escaped {
            #expect(request.probeFrame() == nil, "\(request.id) goes to the encoder")
            #expect(request.frame(nonce: "n", signedAtMs: 0) == request.encodedFrame(nonce: "n", signedAtMs: 0))
        }
        #expect(ConnectRequest(credentials: ConnectCredentials(device: DeviceIdentity.generate())).probeFrame() == nil, "a device signs")
    }

    @Test("as a device: a node host's request, signed over OpenClaw's v3 payload; the signature verifies, a changed byte does not")
    func deviceRequest() throws {
        let device = DeviceIdentity.generate()
        let token = GatewayToken("tok", source: "test")
        let request = ConnectRequest(id: "r3", credentials: ConnectCredentials(token: token, device: device))
        let frame = try json(request.frame(nonce: "nonce-1", signedAtMs: 1_700_000_000_000))
        let params = try #require(frame["params"] as? [String: Any])
        #expect(params["role"] as? String == "node" && params["scopes"] as? [String] == [])
        let client = try #require(params["client"] as? [String: Any])
        #expect(
            client["id"] as? String == "node-host" && client["mode"] as? String == "node" && client["deviceFamily"] as? String == "Linux")
        let shown = try #require(params["device"] as? [String: Any])
        #expect(shown["id"] as? String == device.deviceId && shown["nonce"] as? String == "nonce-1")
        #expect(shown["signedAt"] as? Int == 1_700_000_000_000)
        let payload = ConnectRequest.devicePayload(
            deviceId: device.deviceId, clientId: "node-host", clientMode: "node", role: "node", scopes: [], signedAtMs: 1_700_000_000_000,
            token: "tok", nonce: "nonce-1", platform: "linux", deviceFamily: "Linux")
        #expect(payload == "v3|\(device.deviceId)|node-host|node|node||1700000000000|tok|nonce-1|linux|linux")
        let signature = try #require(shown["signature"] as? String)
        #expect(DeviceIdentity.verify(publicKey: device.publicKey, payload: payload, signature: signature))
        #expect(!DeviceIdentity.verify(publicKey: device.publicKey, payload: payload + "x", signature: signature))
        #expect(DeviceIdentity.deviceId(ofPublicKey: device.publicKey) == device.deviceId)
    }

    @Test("device.json as OpenClaw writes it (version 1, PKCS#8 PEM) reads back to the same identity; other files are refused")
    func identityFile() throws {
        let device = DeviceIdentity.generate()
        let read = try DeviceIdentity.parse(Data(device.storedJSON(createdAtMs: 1).utf8), path: "device.json")
        #expect(read == device)
        #expect(throws: DeviceIdentity.Failure.self) { try DeviceIdentity.parse(Data("{}".utf8), path: "x.json") }
        #expect(throws: DeviceIdentity.Failure.self) {
            try DeviceIdentity.parse(
                Data(#"{"privateKeyPem":"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"}"#.utf8), path: "x")
        }
    }

    static let answers: [(String, String)] = [
        (
            #"{"type":"res","id":"r","ok":true,"payload":{"type":"hello-ok","protocol":4,"server":{"version":"2026.5.1","connId":"c"},"#
                + #""features":{"methods":[],"events":[]},"snapshot":{},"auth":{"role":"operator","scopes":["operator.read"]},"#
                + #""policy":{"maxPayload":1,"maxBufferedBytes":1,"tickIntervalMs":30000}}}"#, "hello-ok 4 2026.5.1"
        ),
        (
            #"{"type":"res","id":"r","ok":false,"error":{"code":"NOT_PAIRED","message":"pairing required: device is not approved yet","#
                + #""details":{"code":"PAIRING_REQUIRED","reason":"not-paired","requestId":"req-7","requestedScopes":[]}}}"#,
            "NOT_PAIRED PAIRING_REQUIRED req-7"
        ),
        (
            #"{"type":"res","id":"r","ok":false,"error":{"code":"INVALID_REQUEST","message":"unauthorized: gateway token mismatch","#
                + #""details":{"code":"AUTH_TOKEN_MISMATCH","recommendedNextStep":"update_auth_credentials","canRetryWithDeviceToken":false}}}"#,
            "INVALID_REQUEST AUTH_TOKEN_MISMATCH update_auth_credentials"
        ),
        (
            #"{"type":"res","id":"r","ok":false,"error":{"code":"INVALID_REQUEST","message":"protocol mismatch","#
                + #""details":{"code":"PROTOCOL_MISMATCH","clientMinProtocol":4,"clientMaxProtocol":4,"expectedProtocol":5}}}"#,
            "INVALID_REQUEST PROTOCOL_MISMATCH expects 5"
        ),
        (
            #"{"type":"res","id":"r","ok":false,"error":{"code":"UNAVAILABLE","message":"gateway starting; retry shortly","#
                + #""retryable":true,"retryAfterMs":500,"details":{"reason":"startup-sidecars"}}}"#, "UNAVAILABLE retry 500"
        ),
        (#"{"type":"res","id":"other","ok":true}"#, "unexpected"),
        ("not json", "unexpected"),
    ]

    static let errorSpellings: [(String, String, String?, String?, ConnectError.Code, ConnectError.DetailCode?, ConnectError.NextStep?)] = [
        ("NOT_PAIRED", "pairing required", "PAIRING_REQUIRED", nil, .notPaired, .pairingRequired, nil),
        ("NOT_PAIRED", "device identity required", "DEVICE_IDENTITY_REQUIRED", nil, .notPaired, .deviceIdentityRequired, nil),
        (
            "INVALID_REQUEST", "x", "AUTH_TOKEN_MISMATCH", "update_auth_credentials", .invalidRequest, .authTokenMismatch,
            .updateAuthCredentials
        ),
        (
            "INVALID_REQUEST", "x", "AUTH_TOKEN_MISSING", "update_auth_configuration", .invalidRequest, .authTokenMissing,
            .updateAuthConfiguration
        ),
        ("INVALID_REQUEST", "x", "AUTH_RATE_LIMITED", "wait_then_retry", .invalidRequest, .authRateLimited, .waitThenRetry),
        ("INVALID_REQUEST", "x", "AUTH_PASSWORD_MISMATCH", nil, .invalidRequest, .auth("AUTH_PASSWORD_MISMATCH"), nil),
        ("INVALID_REQUEST", "x", "DEVICE_AUTH_NONCE_MISMATCH", nil, .invalidRequest, .deviceAuth("DEVICE_AUTH_NONCE_MISMATCH"), nil),
        ("INVALID_REQUEST", "protocol mismatch", "PROTOCOL_MISMATCH", nil, .invalidRequest, .protocolMismatch, nil),
        ("INVALID_REQUEST", "protocol mismatch", nil, nil, .invalidRequest, nil, nil),
        ("INVALID_REQUEST", "Protocol mismatch!", nil, nil, .invalidRequest, nil, nil),
        ("UNAVAILABLE", "gateway starting; retry shortly", nil, nil, .unavailable, nil, nil),
        (
            "TEAPOT", "x", "AUTHENTICATED_PROFILE_UNAVAILABLE", "dance", .other("TEAPOT"), .other("AUTHENTICATED_PROFILE_UNAVAILABLE"),
            .other("dance")
        ),
    ]

    @Test("error words are read once into typed codes; unknown words keep their wire text", arguments: errorSpellings)
    func errorWords(
        code: String, message: String, detail: String?, next: String?, typed: ConnectError.Code, detailCode: ConnectError.DetailCode?,
        step: ConnectError.NextStep?
    ) {
        let error = ConnectError(
            code: code, message: message, detailCode: detail, requestId: nil, reason: nil, recommendedNextStep: next,
            canRetryWithDeviceToken: nil, expectedProtocol: nil, clientMinProtocol: nil, clientMaxProtocol: nil, retryAfterMs: nil)
        #expect(
            error.code == typed && error.detailCode == detailCode && error.recommendedNextStep == step,
            "\(code)/\(detail ?? "-")/\(next ?? "-") read as \(error.code) \(String(describing: error.detailCode)) \(String(describing: error.recommendedNextStep))"
        )
        #expect(error.code.word == code && error.recommendedNextStep?.word == next, "the wire text is kept for display")
        if let detail { #expect(error.detailCode?.word == detail) }
    }

    @Test(
        "a protocol mismatch: by details.code, or by OpenClaw's own code and message when a Gateway sends no details.code",
        arguments: [
            ("INVALID_REQUEST", "anything", "PROTOCOL_MISMATCH", true), ("INVALID_REQUEST", "protocol mismatch", nil, true),
            ("INVALID_REQUEST", "Protocol mismatch!", nil, false), ("UNAVAILABLE", "protocol mismatch", nil, false),
            ("INVALID_REQUEST", "protocol mismatch", "AUTH_TOKEN_MISMATCH", false),
        ] as [(String, String, String?, Bool)])
    func protocolMismatch(code: String, message: String, detail: String?, mismatch: Bool) {
        let error = ConnectError(
            code: code, message: message, detailCode: detail, requestId: nil, reason: nil, recommendedNextStep: nil,
            canRetryWithDeviceToken: nil, expectedProtocol: nil, clientMinProtocol: nil, clientMaxProtocol: nil, retryAfterMs: nil)
        #expect(error.isProtocolMismatch == mismatch, "\(code)/\(detail ?? "-"): \(message)")
        #expect(error.detailCode?.word == detail, "detailCode stays what the Gateway sent")
    }

    @Test("answers are read as OpenClaw shapes them", arguments: answers)
    func answer(text: String, expected: String) {
        let outcome = ConnectAnswer.read(text, requestId: "r")
        let summary: String
        switch outcome {
        case .helloOk(let hello)?: summary = "hello-ok \(hello.protocolVersion ?? 0) \(hello.serverVersion ?? "")"
        case .rejected(let error, _)?:
            summary = [
                error.code.word, error.detailCode?.word, error.requestId, error.recommendedNextStep?.word,
                error.expectedProtocol.map { "expects \($0)" },
                error.retryAfterMs.map { "retry \($0)" },
            ].compactMap { $0 }.joined(separator: " ")
        case .unexpected?: summary = "unexpected"
        default: summary = "\(String(describing: outcome))"
        }
        #expect(summary == expected)
        #expect(ConnectAnswer.read(#"{"type":"event","event":"tick","payload":{}}"#, requestId: "r") == nil, "an event is skipped")
    }

    // MARK: The stand-in's decisions

    func reply(_ connect: StandInConnect, _ request: ConnectRequest, nonce: String = "n1", nowMs: Int64 = 1_700_000_000_000) throws
        -> (frame: [String: Any]?, close: (code: UInt16, reason: String)?)
    {
        let text = String(decoding: request.frame(nonce: nonce, signedAtMs: 1_700_000_000_000), as: UTF8.self)
        let answer = connect.reply(to: text, nonce: nonce, nowMs: nowMs)
        return (try answer.frames.first.map { try json(Array($0.utf8)) }, answer.close)
    }

    func detailCode(_ frame: [String: Any]?) -> String? {
        ((frame?["error"] as? [String: Any])?["details"] as? [String: Any])?["code"] as? String
    }

    @Test("auto: no credentials -> device identity required; the right token -> hello-ok; a wrong one -> AUTH_TOKEN_MISMATCH")
    func standInAuto() throws {
        let token = try #require(GatewayToken("right", source: "stand-in"))
        let gateway = StandInConnect(token: token)
        let none = try reply(gateway, ConnectRequest(id: "a", credentials: .none))
        #expect((none.frame?["error"] as? [String: Any])?["code"] as? String == "NOT_PAIRED")
        #expect(detailCode(none.frame) == "DEVICE_IDENTITY_REQUIRED" && none.close?.code == 1008)
        let right = try reply(gateway, ConnectRequest(id: "b", credentials: ConnectCredentials(token: GatewayToken("right", source: "t"))))
        #expect(right.frame?["ok"] as? Bool == true && right.close == nil)
        let wrong = try reply(gateway, ConnectRequest(id: "c", credentials: ConnectCredentials(token: GatewayToken("wrong", source: "t"))))
        #expect(detailCode(wrong.frame) == "AUTH_TOKEN_MISMATCH")
        #expect(wrong.close?.reason == "unauthorized: gateway token mismatch (set gateway.remote.token to match gateway.auth.token)")
        #expect(StandInConnect().reply(to: "garbage", nonce: "n", nowMs: 0).close?.code == 1008)
    }

    @Test(
        "the stand-in builds replies with a JSON encoder: a request id with quotes, backslashes and control characters comes back exact",
        arguments: StandInConnect.Outcome.allCases)
    func standInHostileID(outcome: StandInConnect.Outcome) throws {
        let id = "a\"b\\c\n\u{1B}[2J\u{0}\"}],\"ok\":true,\"x\":{\""
        let request = try JSONSerialization.data(withJSONObject: [
            "type": "req", "id": id, "method": "connect",
            "params": ["minProtocol": 3, "maxProtocol": 4, "client": ["id": "cli", "mode": "probe", "version": "1", "platform": "linux"]],
        ])
        let answer = StandInConnect(outcome: outcome).reply(to: String(decoding: request, as: UTF8.self), nonce: "n", nowMs: 0)
        // The responses (a pairing decision also sends an event, which has no id).
        for frame in answer.frames where frame.contains(#""type":"res""#) {
            let object = try JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any]
            #expect(object?["id"] as? String == id, "\(outcome): \(frame)")
        }
    }

    @Test("auto with a device: a valid signature is paired or asked to pair; a bad one, a stale one or another nonce are refused")
    func standInDevice() throws {
        let device = DeviceIdentity.generate()
        let request = ConnectRequest(id: "d", credentials: ConnectCredentials(device: device))
        let unpaired = try reply(StandInConnect(), request)
        #expect(detailCode(unpaired.frame) == "PAIRING_REQUIRED")
        let requestId = ((unpaired.frame?["error"] as? [String: Any])?["details"] as? [String: Any])?["requestId"] as? String
        #expect(requestId != nil && unpaired.close?.reason.contains("(requestId: \(requestId ?? ""))") == true)
        let paired = try reply(StandInConnect(pairedDevices: [device.deviceId]), request)
        #expect(paired.frame?["ok"] as? Bool == true)
        let stale = try reply(StandInConnect(pairedDevices: [device.deviceId]), request, nowMs: 1_700_000_000_000 + 11 * 60_000)
        #expect(detailCode(stale.frame) == "DEVICE_AUTH_SIGNATURE_EXPIRED")
        let text = String(decoding: request.frame(nonce: "n1", signedAtMs: 1_700_000_000_000), as: UTF8.self)
        let otherNonce = StandInConnect().reply(to: text, nonce: "n2", nowMs: 1_700_000_000_000)
        #expect(otherNonce.frames.first?.contains("DEVICE_AUTH_NONCE_MISMATCH") == true)
        let forged = text.replacingOccurrences(of: #""role":"node""#, with: #""role":"operator""#)
        #expect(
            StandInConnect().reply(to: forged, nonce: "n1", nowMs: 1_700_000_000_000).frames.first?.contains("SIGNATURE_INVALID") == true)
        let token = try #require(GatewayToken("t", source: "s"))
        let missing = try reply(StandInConnect(token: token, pairedDevices: [device.deviceId]), request)
        #expect(detailCode(missing.frame) == "AUTH_TOKEN_MISSING")
    }

    static let forced: [(StandInConnect.Outcome, String?, UInt16?)] = [
        (.helloOk, nil, nil), (.pairingRequired, "PAIRING_REQUIRED", 1008), (.tokenMismatch, "AUTH_TOKEN_MISMATCH", 1008),
        (.tokenMissing, "AUTH_TOKEN_MISSING", 1008), (.deviceRequired, "DEVICE_IDENTITY_REQUIRED", 1008),
        (.protocolMismatch, "PROTOCOL_MISMATCH", 1002), (.starting, nil, 1013), (.close1008, nil, 1008),
    ]

    @Test("forced outcomes answer with OpenClaw's codes and closes", arguments: forced)
    func standInForced(outcome: StandInConnect.Outcome, code: String?, close: UInt16?) throws {
        let answer = try reply(StandInConnect(outcome: outcome), ConnectRequest(id: "f", credentials: .none))
        #expect(detailCode(answer.frame) == code)
        #expect(answer.close?.code == close)
        if outcome == .starting {
            let error = try #require(answer.frame?["error"] as? [String: Any])
            #expect(
                error["code"] as? String == "UNAVAILABLE" && error["retryable"] as? Bool == true
                    && answer.close?.reason == "gateway starting")
        }
        if outcome == .close1008 { #expect(answer.frame == nil) }
    }

    // MARK: The exchange handler

    @Test("the handler skips events, answers pings, reads the response and then the close with its reason")
    func handler() throws {
        let channel = EmbeddedChannel()
        let answer = channel.eventLoop.makePromise(of: ConnectOutcome.self)
        let closed = channel.eventLoop.makePromise(of: Closing.self)
        try channel.pipeline.syncOperations.addHandler(ConnectExchangeHandler(requestId: "r", answer: answer, closed: closed))
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: #"{"type":"event","event":"tick"}"#)))
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "p")))
        let pong = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(pong.opcode == .pong)
        let error = #"{"type":"res","id":"r","ok":false,"error":{"code":"NOT_PAIRED","message":"x","details":{"code":"PAIRING_REQUIRED"}}}"#
        try channel.writeInbound(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(string: String(error.prefix(20)))))
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(string: String(error.dropFirst(20)))))
        guard case .rejected(let rejected, _) = try answer.futureResult.wait() else {
            Issue.record("no rejection")
            return
        }
        #expect(rejected.detailCode == .pairingRequired)
        var payload = ByteBuffer()
        payload.writeInteger(UInt16(1008))
        payload.writeString("pairing required")
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload))
        #expect(try closed.futureResult.wait().frame == CloseFrame(code: 1008, reason: "pairing required"))
    }

    @Test("a refusal kept open for the operator's decision: device.pair.resolved for its request, then close 4008, is read")
    func resolution() throws {
        let channel = EmbeddedChannel()
        let answer = channel.eventLoop.makePromise(of: ConnectOutcome.self)
        let closed = channel.eventLoop.makePromise(of: Closing.self)
        try channel.pipeline.syncOperations.addHandler(ConnectExchangeHandler(requestId: "r", answer: answer, closed: closed))
        let refusal =
            #"{"type":"res","id":"r","ok":false,"error":{"code":"NOT_PAIRED","message":"pairing required","#
            + #""details":{"code":"PAIRING_REQUIRED","requestId":"q1","waitForResolution":true}}}"#
        for text in [
            refusal, #"{"type":"event","event":"device.pair.resolved","payload":{"requestId":"q0","decision":"approved"}}"#,
            #"{"type":"event","event":"device.pair.resolved","payload":{"requestId":"q1","decision":"expired"}}"#,
        ] {
            try channel.writeInbound(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
        }
        var payload = ByteBuffer()
        payload.writeInteger(UInt16(4008))
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload))
        let closing = try closed.futureResult.wait()
        #expect(closing.resolution == .expired && closing.frame.code == 4008, "\(closing)")
        guard case .rejected(let refused, _) = try answer.futureResult.wait() else {
            Issue.record("no rejection")
            return
        }
        #expect(refused.resolved(closing.resolution).detailCode == .pairingExpired)
    }

    @Test("an answer larger than the bound is refused, not buffered")
    func bound() throws {
        let channel = EmbeddedChannel()
        let answer = channel.eventLoop.makePromise(of: ConnectOutcome.self)
        let closed = channel.eventLoop.makePromise(of: Closing.self)
        defer { closed.fail(ProbeTimeout()) }
        try channel.pipeline.syncOperations.addHandler(ConnectExchangeHandler(requestId: "r", answer: answer, closed: closed))
        let chunk = String(repeating: "x", count: 65_536)
        for _ in 0..<17 { try channel.writeInbound(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(string: chunk))) }
        guard case .unexpected(let why) = try answer.futureResult.wait() else {
            Issue.record("no bound")
            return
        }
        #expect(why.contains("1024 KiB"))
    }
}
