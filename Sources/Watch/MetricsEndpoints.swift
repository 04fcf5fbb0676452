import NIOCore
import NIOHTTP1

/// Answers GET /metrics and GET /sd; anything else is 404 (405 for another method, 400 at once
/// for a request that does not parse or is not HTTP/1). Closes a connection whose request is not
/// whole within `requestTimeout`, whose answer is not written within `answerTimeout` or stands
/// still for `stallTimeout`, and every connection after `connectionLifetime`.
final class MetricsEndpoints: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private let board: WatchBoard
    private let gatewayLimit: Int
    private let slots: ConnectionSlots
    private var head: HTTPRequestHead?
    private var timers: [Scheduled<Void>] = []
    private var writeWatch: RepeatedTask?
    /// One answer per connection, whatever else comes (a parser error after a bad line).
    private var answered = false

    /// The answer goes out in pieces this large; each one written is progress.
    static let piece = 8192

    init(board: WatchBoard, gatewayLimit: Int, slots: ConnectionSlots) {
        self.board = board
        self.gatewayLimit = gatewayLimit
        self.slots = slots
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timers = [MetricsServer.requestTimeout, MetricsServer.connectionLifetime].map { delay in
            context.eventLoop.scheduleTask(in: delay) { channel.close(promise: nil) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timers.forEach { $0.cancel() }
        writeWatch?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        switch unwrapInboundIn(data) {
        case .head(let head) where head.version.major != 1:
            // HTTP/0.9 (a request line without a version) or a version this server does not speak.
            answer(context, .badRequest, "text/plain", Array("HTTP/1.0 or HTTP/1.1 only\n".utf8))
        case .head(let head): self.head = head
        case .body: break
        case .end:
            // The request is whole: from now on the answer's own bounds apply.
            timers.first?.cancel()
            slots.answering(context.channel)
            respond(context)
        }
    }

    /// It gave its place while it waited for its request: answered 503, without a reset. A
    /// connection already answered goes on (its request was read as its place was taken).
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is LingeringRefusal.Refused else { return context.fireUserInboundEventTriggered(event) }
        guard !answered else { return }
        answered = true
        timers.first?.cancel()
        try? context.pipeline.syncOperations.addHandler(LingeringRefusal(), position: .first)
    }

    /// A request that does not parse is answered 400 at once, once; any other error closes.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, !answered else { return context.close(promise: nil) }
        answer(context, .badRequest, "text/plain", Array("not an HTTP request\n".utf8))
    }

    private func respond(_ context: ChannelHandlerContext) {
        let path = head.map { String($0.uri.prefix { $0 != "?" }) }
        let (status, type, body): (HTTPResponseStatus, String, [UInt8])
        if head?.method != .GET {
            (status, type, body) = (.methodNotAllowed, "text/plain", Array("only GET\n".utf8))
        } else if path == "/metrics" {
            (status, type, body) = (
                .ok, MetricsText.contentType, Array(MetricsText.render(board.snapshot(), gatewayLimit: gatewayLimit).utf8)
            )
        } else if path == "/sd" {
            (status, type, body) = (.ok, "application/json", ServiceDiscoveryList.json(board.snapshot(), gatewayLimit: gatewayLimit))
        } else {
            (status, type, body) = (.notFound, "text/plain", Array("/metrics or /sd\n".utf8))
        }
        answer(context, status, type, body)
    }

    /// Writes the answer in pieces, its progress watched, and closes once it is written.
    private func answer(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ type: String, _ body: [UInt8]) {
        answered = true
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        let progress = watchWrites(context)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        for start in stride(from: 0, to: body.count, by: Self.piece) {
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenSuccess { progress.value = .now() }
            let piece = body[start..<min(start + Self.piece, body.count)]
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: piece)))), promise: written)
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        head = nil
    }

    /// Bounds the answer about to be written: closed when it is not written within
    /// `answerTimeout` or stands still for `stallTimeout` (a client that does not read it, its
    /// receive window shut), its slot open to a newcomer while it has stood still for
    /// `stallGrace`. Returns when the answer last moved, for each piece written to set.
    private func watchWrites(_ context: ChannelHandlerContext) -> NIOLoopBoundBox<NIODeadline> {
        let channel = context.channel
        let slots = self.slots
        let progress = NIOLoopBoundBox(NIODeadline.now(), eventLoop: context.eventLoop)
        timers.append(context.eventLoop.scheduleTask(in: MetricsServer.answerTimeout) { channel.close(promise: nil) })
        let every = TimeAmount.milliseconds(250)
        writeWatch = context.eventLoop.scheduleRepeatedTask(initialDelay: every, delay: every) { _ in
            let still = NIODeadline.now() - progress.value
            if still >= MetricsServer.stallTimeout {
                channel.close(promise: nil)
            } else {
                slots.stalled(channel, still >= MetricsServer.stallGrace)
            }
        }
        return progress
    }
}
