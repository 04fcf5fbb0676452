import DNSSD
import Glibc
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOSSL
import NIOWebSocket
import Testing

@testable import Probes

/// What the probes read off the wire, without a peer: the ServerHello, first frames, and the
/// WebSocket handlers on an EmbeddedChannel.
@Suite("Probe parsing and handlers (in memory)")
struct ProbeHandlerTests {
    @Test("ServerHello parsing (golden TLS 1.3 and 1.2 records, and non-TLS bytes)")
    func serverHello() {
        // A minimal TLS 1.3 ServerHello: record header, handshake header, legacy version,
        // random, empty session id, cipher 0x1302, compression, supported_versions = 0x0304.
        let body: [UInt8] =
            [3, 3] + [UInt8](repeating: 7, count: 32) + [0] + [0x13, 0x02] + [0] + [0, 6] + [0x00, 0x2B, 0, 2, 0x03, 0x04]
        let handshake: [UInt8] = [2, 0, 0, UInt8(body.count)] + body
        let record: [UInt8] = [22, 3, 3, 0, UInt8(handshake.count)] + handshake
        #expect(ServerHello.parse(record) == .hello(ServerHello(cipherSuite: 0x1302, version: 0x0304)))
        #expect(ServerHello.parse(Array(record.prefix(20))) == .needMore)
        let tls12: [UInt8] = [3, 3] + [UInt8](repeating: 1, count: 32) + [0] + [0xC0, 0x2F] + [0]
        let record12: [UInt8] = [22, 3, 3, 0, UInt8(tls12.count + 4), 2, 0, 0, UInt8(tls12.count)] + tls12
        guard case .hello(let hello) = ServerHello.parse(record12) else {
            Issue.record("TLS 1.2 hello")
            return
        }
        #expect(hello.protocolVersion == .tls12 && hello.cipherName == "ECDHE-RSA-AES128-GCM-SHA256")
        #expect(ServerHello.parse(Array("HTTP/1.1 400 Bad".utf8)) == .notTLS)
        #expect(ServerHello.parse([21, 3, 3, 0, 2, 2, 70]) == .alert(description: 70))
    }

    @Test("the Host header: no trailing dot, IPv6 in brackets without its zone")
    func hostHeaders() {
        func header(_ host: String) -> String {
            GatewayProbe.hostHeader(ProbeTarget(label: host, host: host, addresses: [], port: 18789, tls: true))
        }
        let seen = ["studio.local.", "192.168.1.5", "fe80::1%eth0", "fd7a:115c:a1e0::1"].map(header)
        #expect(seen == ["studio.local:18789", "192.168.1.5:18789", "[fe80::1]:18789", "[fd7a:115c:a1e0::1]:18789"], "\(seen)")
    }

    @Test(
        "TLS versions by wire number: a case to match on, words for messages",
        arguments: [
            (0x0304, TLSProtocolVersion.tls13, "TLS 1.3"), (0x0303, .tls12, "TLS 1.2"), (0x0302, .tls11, "TLS 1.1"),
            (0x0301, .tls10, "TLS 1.0"), (0x7f1c, .other(0x7f1c), "0x7f1c"),
        ] as [(UInt16, TLSProtocolVersion, String)])
    func tlsVersions(wire: UInt16, version: TLSProtocolVersion, words: String) {
        let read = TLSProtocolVersion(wire: wire)
        #expect(read == version && read.description == words, "\(wire) read as \(read) (\(read.description))")
    }

    @Test(
        "TLS alerts by code: named where doctor explains them, the code kept",
        arguments: [
            (70, TLSAlert.protocolVersion, "TLS alert 70 (protocol_version: no TLS version in common)"),
            (40, .handshakeFailure, "TLS alert 40 (handshake_failure)"), (112, .other(112), "TLS alert 112"),
        ] as [(UInt8, TLSAlert, String)])
    func tlsAlerts(code: UInt8, alert: TLSAlert, words: String) {
        let read = TLSAlert(code: code)
        #expect(read == alert && read.code == code && read.description == words, "\(code) read as \(read) (\(read.description))")
    }

    @Test(
        "first frames are read strictly",
        arguments: [
            (#"{"type":"event","event":"connect.challenge","payload":{"nonce":"abc","ts":1}}"#, .challenge(nonce: "abc")),
            ("not json", .unexpected(problem: "the first frame is not a JSON object")),
            (#"{"type":"res","id":"1"}"#, .unexpected(problem: "the first frame is a 'res', not an event")),
            (#"{"type":"event","event":"connect.challenge","payload":{}}"#, .unexpected(problem: "connect.challenge has no payload.nonce")),
            (
                #"{"type":"event","event":"connect.challenge","payload":{"nonce":"n"}}"#,
                .unexpected(problem: "connect.challenge has no payload.ts")
            ),
        ] as [(String, FirstFrame.Content)])
    func frames(text: String, content: FirstFrame.Content) {
        let read = WebSocketProbe.read(text)
        #expect(read.content == content, "\(text) read as \(read.content)")
    }

    /// A channel with the first-frame handler and the promises it completes.
    func frameChannel() throws -> (EmbeddedChannel, EventLoopFuture<FirstFrame>, EventLoopFuture<Void>) {
        let channel = EmbeddedChannel()
        let frame = channel.eventLoop.makePromise(of: FirstFrame.self)
        let closed = channel.eventLoop.makePromise(of: Void.self)
        try channel.pipeline.syncOperations.addHandler(FirstFrameHandler(frame: frame, closed: closed))
        return (channel, frame.futureResult, closed.futureResult)
    }

    func textFrame(_ text: String, fin: Bool = true, opcode: WebSocketOpcode = .text) -> WebSocketFrame {
        WebSocketFrame(fin: fin, opcode: opcode, data: ByteBuffer(string: text))
    }

    @Test("the first frame, split into a text frame and a continuation, is read whole; a ping is answered with a masked pong")
    func firstFrame() throws {
        let (channel, frame, _) = try frameChannel()
        let challenge = #"{"type":"event","event":"connect.challenge","payload":{"nonce":"abc","ts":1}}"#
        let middle = challenge.index(challenge.startIndex, offsetBy: 20)
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "hi")))
        try channel.writeInbound(textFrame(String(challenge[..<middle]), fin: false))
        try channel.writeInbound(textFrame(String(challenge[middle...]), opcode: .continuation))
        let read = try frame.wait()
        #expect(read.content == .challenge(nonce: "abc"), "\(read)")
        let pong = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(pong.opcode == .pong && pong.maskKey != nil)
        // The encoder masks `data` with the key on the wire; in memory it is the ping's payload.
        #expect(String(buffer: pong.data) == "hi")
    }

    @Test("a close before the first frame fails it with the close code")
    func closedEarly() throws {
        let (channel, frame, _) = try frameChannel()
        var code = ByteBuffer()
        code.write(webSocketErrorCode: .policyViolation)
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, data: code))
        #expect(throws: ClosedEarly.self) { try frame.wait() }
        do { _ = try frame.wait() } catch let error as ClosedEarly { #expect(error.code == 1008) }
    }

    @Test("fragments beyond the 64 KiB limit fail the frame instead of growing")
    func tooLarge() throws {
        let (channel, frame, _) = try frameChannel()
        let chunk = String(repeating: "x", count: 16_384)
        try channel.writeInbound(textFrame(chunk, fin: false))
        for _ in 0..<4 { try channel.writeInbound(textFrame(chunk, fin: false, opcode: .continuation)) }
        #expect(throws: NIOWebSocketError.invalidFrameLength) { try frame.wait() }
    }

    @Test("after the frame, the server's close completes the clean close")
    func cleanClose() throws {
        let (channel, frame, closed) = try frameChannel()
        try channel.writeInbound(textFrame(#"{"type":"event","event":"tick"}"#))
        #expect(try frame.wait().content == .unexpected(problem: "the first event is 'tick', not connect.challenge"))
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer()))
        try closed.wait()
    }

    @Test("an upgrade answered with another status is refused with that status; a connection that ends is closed early")
    func upgradeWatcher() throws {
        let channel = EmbeddedChannel()
        let upgrade = channel.eventLoop.makePromise(of: Void.self)
        let frame = channel.eventLoop.makePromise(of: FirstFrame.self)
        try channel.pipeline.syncOperations.addHandler(UpgradeWatcher(upgrade: upgrade, frame: frame))
        var headers = HTTPHeaders([("Location", "https://sso.example/login"), ("Retry-After", "5"), ("Server", "nginx")])
        headers.add(name: "Content-Type", value: "application/json")
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .found, headers: headers)))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: #"{"error":{"type":"x","#)))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: #""message":"m"}}"#)))
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
        do {
            try upgrade.futureResult.wait()
            Issue.record("an HTTP 302 was taken for an upgrade")
        } catch let refused as UpgradeRefused {
            let rejection = refused.rejection
            #expect(rejection.status == 302 && rejection.location == "https://sso.example/login" && rejection.retryAfter == .seconds(5))
            #expect(rejection.errorType == "x" && rejection.errorMessage == "m" && rejection.server == "nginx", "\(rejection)")
        }

        // A body that stalls is taken as it is after a second, as OpenClaw's clients do.
        let stalled = EmbeddedChannel()
        let stalledUpgrade = stalled.eventLoop.makePromise(of: Void.self)
        try stalled.pipeline.syncOperations.addHandler(
            UpgradeWatcher(upgrade: stalledUpgrade, frame: stalled.eventLoop.makePromise(of: FirstFrame.self)))
        try stalled.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .serviceUnavailable)))
        try stalled.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: "still suspending")))
        stalled.embeddedEventLoop.advanceTime(by: UpgradeWatcher.bodyWait)
        do {
            try stalledUpgrade.futureResult.wait()
            Issue.record("a 503 was taken for an upgrade")
        } catch let refused as UpgradeRefused {
            #expect(refused.rejection.status == 503 && refused.rejection.body == "still suspending", "\(refused.rejection)")
        }

        // A 503 is read to its body: the Gateway's per-address limit says itself there (#55294).
        let limited = EmbeddedChannel()
        let limitedUpgrade = limited.eventLoop.makePromise(of: Void.self)
        try limited.pipeline.syncOperations.addHandler(
            UpgradeWatcher(upgrade: limitedUpgrade, frame: limited.eventLoop.makePromise(of: FirstFrame.self)))
        try limited.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .serviceUnavailable)))
        try limited.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: "Too many unauthenticated sockets")))
        try limited.writeInbound(HTTPClientResponsePart.end(nil))
        do {
            try limitedUpgrade.futureResult.wait()
            Issue.record("an HTTP 503 was taken for an upgrade")
        } catch let refused as UpgradeRefused {
            #expect(
                refused.rejection.status == 503 && refused.rejection.kind == .unavailable(.tooManyUnauthenticated), "\(refused.rejection)")
        }

        let quiet = EmbeddedChannel()
        let quietUpgrade = quiet.eventLoop.makePromise(of: Void.self)
        let quietFrame = quiet.eventLoop.makePromise(of: FirstFrame.self)
        try quiet.pipeline.syncOperations.addHandler(UpgradeWatcher(upgrade: quietUpgrade, frame: quietFrame))
        quiet.pipeline.fireChannelInactive()
        #expect(throws: ClosedEarly.self) { try quietUpgrade.futureResult.wait() }
    }

    @Test("a flood of pings before the first frame: at most frameLimit pongs, then the frame fails and the connection closes")
    func pingFlood() throws {
        let (channel, frame, _) = try frameChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 18789)).wait()
        for index in 0..<1000 where channel.isActive {
            try channel.writeInbound(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "ping \(index)")))
        }
        var pongs = 0
        while try channel.readOutbound(as: WebSocketFrame.self) != nil { pongs += 1 }
        #expect(pongs == FirstFrameHandler.frameLimit)
        #expect(!channel.isActive)
        #expect(throws: TooManyFrames.self) { try frame.wait() }
    }

    @Test("pings after the first message (found by the fuzzer): still at most frameLimit frames in all, then the connection closes")
    func pingsAfterFirstFrame() throws {
        let (channel, frame, _) = try frameChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 18789)).wait()
        let challenge = #"{"type":"event","event":"connect.challenge","payload":{"nonce":"n","ts":1}}"#
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: challenge)))
        for index in 0..<1000 where channel.isActive {
            try channel.writeInbound(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "ping \(index)")))
        }
        var pongs = 0
        while try channel.readOutbound(as: WebSocketFrame.self) != nil { pongs += 1 }
        #expect(pongs == FirstFrameHandler.frameLimit - 1, "\(pongs) pongs")
        #expect(!channel.isActive)
        #expect(try frame.wait().content == .challenge(nonce: "n"), "the first frame stands")
    }

    @Test(
        "control frames that break RFC 6455, through NIO's decoder: the probe names what the server did",
        arguments: [
            ([0x89, 126, 0, 126] + [UInt8](repeating: 0x70, count: 126), "longer than 125 bytes"),
            ([0x09, 4] + Array("ping".utf8), "in fragments"),
            ([0x81, 127, 0, 0, 0, 1, 0, 0, 0, 0], "larger than 64 KiB"),
        ] as [([UInt8], String)])
    func brokenFrames(bytes: [UInt8], words: String) throws {
        let channel = EmbeddedChannel()
        let frame = channel.eventLoop.makePromise(of: FirstFrame.self)
        let closed = channel.eventLoop.makePromise(of: Void.self)
        try channel.pipeline.syncOperations.addHandlers([
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: WebSocketProbe.frameLimit)),
            FirstFrameHandler(frame: frame, closed: closed),
        ])
        _ = try? channel.writeInbound(ByteBuffer(bytes: bytes))
        do {
            _ = try frame.futureResult.wait()
            Issue.record("a broken frame was read as a first frame")
        } catch {
            let text = ProbeConnection.describe(error)
            #expect(text.contains(words), "\(text)")
        }
        closed.fail(ProbeTimeout())
    }

    @Test("a connection that reads more than its byte budget is closed with that reason, whatever the bytes are")
    func byteBudget() throws {
        let channel = EmbeddedChannel()
        let promise = channel.eventLoop.makePromise(of: Void.self)
        try channel.pipeline.syncOperations.addHandlers([WireObserver(), ErrorCatcher(promise: promise)])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 18789)).wait()
        let chunk = ByteBuffer(repeating: 0x16, count: 16 * 1024)
        var written = 0
        while channel.isActive && written < 10 * WireObserver.byteLimit {
            try channel.writeInbound(chunk)
            written += chunk.readableBytes
        }
        #expect(!channel.isActive)
        #expect(written <= WireObserver.byteLimit + chunk.readableBytes)
        #expect(throws: TooMuchData.self) { try promise.futureResult.wait() }
        #expect(ProbeConnection.describe(TooMuchData()).contains("more than 2 MiB"))
    }

    @Test("an HTTP body over 64 KiB is not read to its end: the answer fails with that reason")
    func bodyLimit() throws {
        let channel = EmbeddedChannel()
        let promise = channel.eventLoop.makePromise(of: CollectedResponse.self)
        try channel.pipeline.syncOperations.addHandler(ResponseCollector(promise: promise))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 18789)).wait()
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        for _ in 0..<3 where channel.isActive {
            try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(repeating: 0x78, count: 30_000)))
        }
        #expect(throws: BodyTooLarge.self) { try promise.futureResult.wait() }
        #expect(ProbeConnection.describe(BodyTooLarge()).contains("larger than 64 KiB"))
    }

    @Test(
        "library errors are told in words: no NIO case names, errno text or BoringSSL paths",
        arguments: [
            (IOError(errnoCode: ECONNRESET, reason: "read(descriptor:pointer:size:)") as any Error, "the other side reset the connection"),
            (IOError(errnoCode: ECONNREFUSED, reason: "connect(descriptor:addr:size:)"), "nothing listens on that port"),
            (ChannelError.eof, "the other side closed the connection"),
            (NIOHTTPClientUpgradeError.responseProtocolNotFound, "without `Upgrade: websocket`"),
            (NIOWebSocketError.multiByteControlFrameLength, "longer than 125 bytes"),
            (NIOWebSocketError.fragmentedControlFrame, "in fragments"),
            (HTTPParserError.invalidConstant, "does not start like an HTTP response"),
            (NIOSSLError.uncleanShutdown, "without saying goodbye"),
            (NIOSSLError.handshakeFailed(.sslError([])), "TLS handshake failed"),
        ])
    func errorWords(error: any Error, words: String) {
        let text = ProbeConnection.describe(error)
        #expect(text.contains(words), "\(text)")
        for raw in ["descriptor", "errno", "responseProtocolNotFound", "ControlFrame", "invalid constant string", "Error:"] {
            #expect(!text.contains(raw), "\(text)")
        }
    }

    @Test("BoringSSL's reason code is found in its error text, without the code or the build path")
    func boringSSLReason() {
        let text = "Error: 268435703 error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER at /build/ssl/tls_record.cc:231"
        #expect(ProbeConnection.reasonCode(in: text) == "WRONG_VERSION_NUMBER")
        #expect(ProbeConnection.reasonCode(in: "EOF during handshake") == nil)
    }

    @Test("a probe never runs past its budget plus the margin, however late a phase starts")
    func clockMargin() {
        let spent = ProbeClock(budget: .zero)
        #expect(spent.remaining <= ProbeClock.margin)
        #expect(ProbeClock(budget: .seconds(2)).remaining <= .seconds(2))
        #expect(ProbeClock(budget: .milliseconds(10)).remaining >= .milliseconds(10), "the floor still applies within the margin")
        let queued = ProbeClock(budget: .seconds(1), start: .now - .seconds(2))
        #expect(queued.remaining == .zero, "a probe whose turn comes after the shared deadline gets nothing")
    }

    @Test("a connection with no time left is not tried, and says so instead of 'no answer'")
    func notTried() async {
        let result = await ProbeConnection.connect(to: IPAddress("127.0.0.1")!, port: 9, timeout: .zero)
        guard case .failure(.failed(let why)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(why.contains("not tried"))
    }
}

/// Swallows bytes; fails its promise with the first error that reaches it.
final class ErrorCatcher: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let promise: EventLoopPromise<Void>

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
    }
}
