import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOSupport
import NIOWebSocket

/// The WebSocket opening on an open probe connection: the upgrade (101 and a correct
/// Sec-WebSocket-Accept), the Gateway's first frame (`connect.challenge`), and a clean close.
public enum WebSocketProbe {
    /// Frames before the handshake is complete are capped at 64 KiB (as the Gateway does).
    public static let frameLimit = 65_536
    static let firstFrameHandlerName = "first-frame"

    private enum Step: Sendable {
        case upgraded
        case frame(FirstFrame)
    }

    /// The opening, and with `connect` the connect request after the challenge and its answer.
    static func open(
        host: String, on connection: ProbeConnection, timeout: Duration, connect: ConnectRequest? = nil, origin: BrowserOrigin? = nil
    ) async -> (WebSocketOutcome, ConnectOutcome?) {
        let clock = ProbeClock(budget: timeout)
        let outcome = await open(host: host, on: connection, timeout: timeout, origin: origin) { frame in
            guard let connect, case .challenge(let nonce) = frame.content else { return nil }
            return await ConnectExchange.run(connect, nonce: nonce, on: connection.channel, timeout: clock.remaining)
        }
        return outcome
    }

    /// The opening; `afterFirstFrame` runs once the first frame came, and what it answers is
    /// the connect exchange's outcome (nil: none was made, and the probe says goodbye).
    static func open(
        host: String, on connection: ProbeConnection, timeout: Duration, origin: BrowserOrigin? = nil,
        afterFirstFrame: (FirstFrame) async -> ConnectOutcome?
    ) async -> (WebSocketOutcome, ConnectOutcome?) {
        let channel = connection.channel
        let upgradePromise = channel.eventLoop.makePromise(of: Void.self)
        let framePromise = channel.eventLoop.makePromise(of: FirstFrame.self)
        let closePromise = channel.eventLoop.makePromise(of: Void.self)
        // Every promise ends, whichever way this goes (failing a completed one does nothing).
        defer {
            upgradePromise.fail(ProbeTimeout())
            framePromise.fail(ProbeTimeout())
            closePromise.fail(ProbeTimeout())
        }
        do {
            try await installUpgrade(on: channel, upgrade: upgradePromise, frame: framePromise, closed: closePromise)
        } catch {
            return (.failed(ProbeConnection.describe(error)), nil)
        }
        sendUpgradeRequest(host: host, origin: origin, on: channel)

        let end = NIODeadline.now() + TimeAmount(timeout)
        let timer = channel.eventLoop.scheduleTask(deadline: end) {
            upgradePromise.fail(ProbeTimeout())
            framePromise.fail(ProbeTimeout())
        }
        defer { timer.cancel() }
        do {
            try await upgradePromise.valueUnlessCancelled()
        } catch {
            return (await failure(error, upgraded: false, connection), nil)
        }
        let frame: FirstFrame
        do {
            frame = try await framePromise.valueUnlessCancelled()
        } catch {
            return (await failure(error, upgraded: true, connection), nil)
        }
        timer.cancel()
        if let connect = await afterFirstFrame(frame) {
            // The exchange ends the WebSocket itself.
            return (.opened(frame, closedCleanly: true), connect)
        }
        let closedCleanly = await sayGoodbye(on: channel, closed: closePromise, before: end)
        return (.opened(frame, closedCleanly: closedCleanly), nil)
    }

    /// The HTTP client handlers with the WebSocket upgrader, and the watcher that reads the
    /// answer to the upgrade until the upgrader takes over.
    private static func installUpgrade(
        on channel: any Channel, upgrade: EventLoopPromise<Void>, frame: EventLoopPromise<FirstFrame>, closed: EventLoopPromise<Void>
    ) async throws {
        // The decoder's limit is the connect answer's; the first frame keeps its own 64 KiB limit.
        let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: ConnectExchange.answerLimit, automaticErrorHandling: false) { channel, _ in
            // The watcher speaks HTTP; from here on the wire carries frames. It must go before
            // NIO forwards the bytes that came with the 101.
            channel.pipeline.removeHandler(name: "upgrade-watcher").flatMapThrowing {
                try channel.pipeline.syncOperations.addHandler(FirstFrameHandler(frame: frame, closed: closed), name: firstFrameHandlerName)
                upgrade.succeed()
            }
        }
        try await channel.eventLoop.perform {
            let sync = channel.pipeline.syncOperations
            // Keep bytes that arrive with the 101: the Gateway's first frame may be among them.
            try sync.addHTTPClientHandlers(
                leftOverBytesStrategy: .forwardBytes, withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
            try sync.addHandler(UpgradeWatcher(upgrade: upgrade, frame: frame), name: "upgrade-watcher")
        }
    }

    private static func sendUpgradeRequest(host: String, origin: BrowserOrigin?, on channel: any Channel) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: host)
        if let origin { headers.add(name: "Origin", value: origin.text) }
        // No Content-Length, no body framing at all: as the `ws` package's upgrade request (OpenClaw's
        // clients) goes out of Node's http.request for a GET; NIO adds Upgrade, Connection,
        // Sec-WebSocket-Key and Sec-WebSocket-Version itself.
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/", headers: headers)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    }

    /// Says goodbye properly and waits (briefly, never past `end`) for the server's close frame;
    /// whether it came.
    private static func sayGoodbye(on channel: any Channel, closed: EventLoopPromise<Void>, before end: NIODeadline) async -> Bool {
        var payload = channel.allocator.buffer(capacity: 2)
        payload.write(webSocketErrorCode: .normalClosure)
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload), promise: nil)
        let closeTimer = channel.eventLoop.scheduleTask(deadline: min(.now() + .milliseconds(500), end)) {
            closed.fail(ProbeTimeout())
        }
        defer { closeTimer.cancel() }
        return (try? await closed.valueUnlessCancelled()) != nil
    }

    private static func failure(_ error: any Error, upgraded: Bool, _ connection: ProbeConnection) async -> WebSocketOutcome {
        switch error {
        case let closed as ClosedEarly where !upgraded:
            return .upgradeFailed(
                "the server closed the connection without answering the upgrade\(closed.code.map { " (code \($0))" } ?? "")")
        case is ProbeTimeout:
            return .timedOut(upgraded: upgraded, bytesReceived: await connection.wire().bytes)
        case let refused as UpgradeRefused:
            return .upgradeRefused(refused.rejection)
        case let closed as ClosedEarly:
            return .closedBeforeFirstFrame(code: closed.code)
        case let error as NIOHTTPClientUpgradeError where error == .upgraderDeniedUpgrade:
            return .upgradeFailed("the server answered 101 but its Sec-WebSocket-Accept does not match the key (RFC 6455 §4.2.2)")
        case let error as NIOWebSocketError where error == .invalidFrameLength:
            return .frameTooLarge(limit: frameLimit)
        case let error as NIOHTTPClientUpgradeError where !upgraded:
            return .upgradeFailed(ProbeConnection.describe(error))
        default:
            return upgraded ? .framesBroken(ProbeConnection.describe(error)) : .failed(ProbeConnection.describe(error))
        }
    }

    /// Checks a first frame: JSON `{"type":"event","event":"connect.challenge","payload":{"nonce":...,"ts":...}}`.
    static func read(_ text: String) -> FirstFrame {
        guard let data = text.data(using: .utf8), let object = try? JSONDecoder().decode(Frame.self, from: data) else {
            return FirstFrame(text: text, content: .unexpected(problem: "the first frame is not a JSON object"))
        }
        guard object.type == "event" else {
            return FirstFrame(text: text, content: .unexpected(problem: "the first frame is a '\(object.type ?? "?")', not an event"))
        }
        guard object.event == "connect.challenge" else {
            return FirstFrame(
                text: text, content: .unexpected(problem: "the first event is '\(object.event ?? "?")', not connect.challenge"))
        }
        guard let nonce = object.payload?.nonce, !nonce.isEmpty else {
            return FirstFrame(text: text, content: .unexpected(problem: "connect.challenge has no payload.nonce"))
        }
        guard object.payload?.ts != nil else {
            return FirstFrame(text: text, content: .unexpected(problem: "connect.challenge has no payload.ts"))
        }
        return FirstFrame(text: text, content: .challenge(nonce: nonce))
    }

    private struct Frame: Decodable {
        struct Payload: Decodable {
            let nonce: String?
            let ts: Double?
        }
        let type: String?
        let event: String?
        let payload: Payload?
    }
}

struct UpgradeRefused: Error {
    let rejection: UpgradeRejection
}

struct ClosedEarly: Error {
    let code: UInt16?
}

/// Sees what the HTTP side does: a response that is not 101 (the upgrade handler passes it
/// on), read to its end or `UpgradeRejection.bodyLimit` as OpenClaw's clients read it, an
/// upgrade error, or the connection ending first.
final class UpgradeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    /// A rejection whose body stalls is taken as it is after this long (OpenClaw's clients give up
    /// on a stalled body within 1.5 s).
    static let bodyWait = TimeAmount.seconds(1)
    private let upgrade: EventLoopPromise<Void>
    private let frame: EventLoopPromise<FirstFrame>
    private var rejection: UpgradeRejection?
    private var body: [UInt8] = []
    private var bodyTimer: Scheduled<Void>?

    init(upgrade: EventLoopPromise<Void>, frame: EventLoopPromise<FirstFrame>) {
        self.upgrade = upgrade
        self.frame = frame
    }

    /// A status other than 101 fails the upgrade once its body (the first
    /// `UpgradeRejection.bodyLimit` bytes, within `bodyWait`) has come: the Gateway's reason is there.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head) where head.status != .switchingProtocols:
            rejection = Self.rejection(head)
            bodyTimer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.bodyWait) { [self] in refuse(context) }
        case .body(let buffer) where rejection != nil:
            body += buffer.readableBytesView.prefix(UpgradeRejection.bodyLimit - body.count)
            if body.count >= UpgradeRejection.bodyLimit { refuse(context) }
        case .end where rejection != nil:
            refuse(context)
        default:
            break
        }
    }

    /// The rejection with the body read so far; the connection closes.
    private func refuse(_ context: ChannelHandlerContext) {
        guard let head = rejection else { return }
        rejection = nil
        bodyTimer?.cancel()
        var refused = UpgradeRejection(
            status: head.status, location: head.location, retryAfter: head.retryAfter, body: String(decoding: body, as: UTF8.self))
        (refused.server, refused.via) = (head.server, head.via)
        upgrade.fail(UpgradeRefused(rejection: refused))
        context.close(promise: nil)
    }

    /// The head's part of a rejection: its status and headers.
    static func rejection(_ head: HTTPResponseHead) -> UpgradeRejection {
        func header(_ name: String) -> String? { head.headers.first(name: name).map { String($0.prefix(UpgradeRejection.headerLimit)) } }
        var rejection = UpgradeRejection(
            status: Int(head.status.code), location: header("Location"), retryAfter: header("Retry-After").flatMap(RetryAfter.init(header:))
        )
        (rejection.server, rejection.via) = (header("Server"), header("Via"))
        return rejection
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        refuse(context)
        upgrade.fail(error)
        frame.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        refuse(context)
        upgrade.fail(ClosedEarly(code: nil))
        frame.fail(ClosedEarly(code: nil))
        context.fireChannelInactive()
    }
}

/// After the upgrade: the first data frame (answering pings meanwhile), then the close.
/// At most `frameLimit` frames in all (the first message's bytes are capped by
/// `WebSocketProbe.frameLimit`): a Gateway sends connect.challenge at once, and a server
/// that floods pings would otherwise have a pong queued for each.
public final class FirstFrameHandler: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = WebSocketFrame
    public typealias OutboundOut = WebSocketFrame
    public static let frameLimit = 16
    private let frame: EventLoopPromise<FirstFrame>
    private let closed: EventLoopPromise<Void>
    private var text: [UInt8] = []
    private var done = false
    private var frames = 0

    public init(frame: EventLoopPromise<FirstFrame>, closed: EventLoopPromise<Void>) {
        self.frame = frame
        self.closed = closed
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let incoming = unwrapInboundIn(data)
        // Every frame counts, those after the first message too: pings that keep coming
        // while the probe waits for the close would each queue a pong.
        frames += 1
        guard frames <= Self.frameLimit else {
            if !done { frame.fail(TooManyFrames()) }
            done = true
            closed.fail(TooManyFrames())
            context.close(promise: nil)
            return
        }
        switch incoming.opcode {
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: incoming.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var data = incoming.unmaskedData
            if done {
                closed.succeed()
            } else {
                frame.fail(ClosedEarly(code: data.readInteger(as: UInt16.self)))
            }
            context.close(promise: nil)
        case .text, .binary, .continuation:
            guard !done else { return }
            text += incoming.unmaskedData.readableBytesView
            if text.count > WebSocketProbe.frameLimit {
                done = true
                frame.fail(NIOWebSocketError.invalidFrameLength)
            } else if incoming.fin {
                done = true
                frame.succeed(WebSocketProbe.read(String(decoding: text, as: UTF8.self)))
            }
        default:
            break
        }
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        frame.fail(error)
        closed.fail(error)
        context.close(promise: nil)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        frame.fail(ClosedEarly(code: nil))
        if done { closed.succeed() }
        context.fireChannelInactive()
    }
}
