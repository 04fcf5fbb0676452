import DNSSD
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOWebSocket
import Synchronization

/// One WebSocket client: connect.challenge first, then the answer to its connect request; once
/// logged in (hello-ok), a `tick` every tick interval and an answer to each request
/// (`StandInMethods`), as a Gateway's session gives them, so that clients neither hang on a
/// request nor close with 4000 for want of ticks.
final class StandInSession: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// What every session of one stand-in shares.
    struct Setup: Sendable {
        let connect: StandInConnect
        let observer: StandInGateway.ConnectObserver?
        let admission: StandInAdmission
    }

    /// MAX_PREAUTH_PAYLOAD_BYTES (src/gateway/server-constants.ts): a larger frame is closed
    /// with 1009 by the WebSocket decoder, as the Gateway's `ws` server does.
    static let preauthFrameLimit = 64 * 1024
    /// Frames a logged-in client may send before the stand-in stops answering them: a bound, far
    /// above what a test client sends.
    static let requestLimit = 10_000

    private let setup: Setup
    private let ticket: StandInAdmissionTicket
    /// The upgrade request's headers: what the admission reads (Origin, forwarded headers).
    private let upgrade: HTTPHeaders
    private let nonce = String(TLSFingerprint(digest: (0..<32).map { _ in UInt8.random(in: 0...255) }).hex.prefix(32))
    private var answered = false
    private var closing = false
    private var requests = 0
    private var tickSeq = 0
    private var ticks: RepeatedTask?

    init(_ setup: Setup, ticket: StandInAdmissionTicket, upgrade: HTTPHeaders) {
        self.setup = setup
        self.ticket = ticket
        self.upgrade = upgrade
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let challenge: [String: JSONText] = [
            "type": .text("event"), "event": .text("connect.challenge"),
            "payload": .object(["nonce": .text(nonce), "ts": .number(Int(Date().timeIntervalSince1970 * 1000))]),
        ]
        send(context, .text, context.channel.allocator.buffer(string: JSONText.object(challenge).encoded))
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        ticks?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        ticks?.cancel()
        ticket.release()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text where !answered:
            answered = true
            var text = frame.unmaskedData
            answerConnect(context, text.readString(length: text.readableBytes) ?? "")
        case .text where ticket.loggedIn && requests < Self.requestLimit:
            requests += 1
            var text = frame.unmaskedData
            if let answer = StandInMethods.answer(text.readString(length: text.readableBytes) ?? "") {
                send(context, .text, context.channel.allocator.buffer(string: answer))
            }
        case .ping:
            send(context, .pong, frame.unmaskedData)
        case .connectionClose where closing:
            context.close(promise: nil)
        case .connectionClose:
            var echo = context.channel.allocator.buffer(capacity: 2)
            echo.write(webSocketErrorCode: .normalClosure)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: echo))).whenComplete { _ in
                channel.close(promise: nil)
            }
        default:
            break
        }
    }

    private func answerConnect(_ context: ChannelHandlerContext, _ request: String) {
        let nowMs = Int64(Date().timeIntervalSince1970 * 1000)
        let remote = ticket.address
        let reply =
            setup.admission.refusal(of: request, remote: remote, headers: upgrade)
            ?? setup.connect.reply(to: request, nonce: nonce, nowMs: nowMs, remote: remote)
        if let observer = setup.observer, let received = setup.connect.received(request) { observer(remote, received) }
        for answer in reply.frames {
            send(context, .text, context.channel.allocator.buffer(string: answer))
        }
        if let (code, reason) = reply.close {
            var close = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
            close.writeInteger(code)
            close.writeString(reason)
            closing = true
            send(context, .connectionClose, close)
        } else if reply.loggedIn {
            ticket.logIn()
            startTicks(context)
        }
    }

    /// `tick` events (TICK_INTERVAL_MS): a client that sees none for two intervals closes 4000.
    private func startTicks(_ context: ChannelHandlerContext) {
        let interval = TimeAmount(setup.connect.tickInterval)
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        ticks = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            handler.value.tick(channel)
        }
    }

    private func tick(_ channel: any Channel) {
        tickSeq += 1
        let event: [String: JSONText] = [
            "type": .text("event"), "event": .text("tick"), "seq": .number(tickSeq),
            "payload": .object(["ts": .number(Int(Date().timeIntervalSince1970 * 1000))]),
        ]
        let data = channel.allocator.buffer(string: JSONText.object(event).encoded)
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: data), promise: nil)
    }

    private func send(_ context: ChannelHandlerContext, _ opcode: WebSocketOpcode, _ data: ByteBuffer) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
    }
}

/// Closes a connection that has not logged in within the limit (the Gateway's pre-auth handshake
/// timeout: a silent client, half a request, or a WebSocket without a connect request).
final class HandshakeDeadline: ChannelInboundHandler {
    typealias InboundIn = NIOAny
    private let ticket: StandInAdmissionTicket
    private let limit: Duration
    private var timer: Scheduled<Void>?

    init(ticket: StandInAdmissionTicket, limit: Duration) {
        self.ticket = ticket
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let ticket = ticket
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: TimeAmount(limit)) {
            if !ticket.loggedIn { channel.close(promise: nil) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        ticket.release()
        context.fireChannelInactive()
    }
}

/// Every open connection of a stand-in, so that stopping it frees their descriptors.
final class StandInConnections: Sendable {
    private let open = Mutex<[ObjectIdentifier: any Channel]>([:])

    func add(_ channel: any Channel) { open.withLock { $0[ObjectIdentifier(channel)] = channel } }
    func remove(_ channel: any Channel) { _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) } }

    func closeAll() async {
        let channels = open.withLock { Array($0.values) }
        for channel in channels { try? await channel.close() }
    }
}
