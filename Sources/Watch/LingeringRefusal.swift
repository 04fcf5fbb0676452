import NIOCore

/// The whole pipeline of a connection the metrics server has no room for (or the first handler
/// of one that gave its place while it waited for its request). Closing it at once
/// would reset it whenever its request has arrived unread (the kernel answers unread data with
/// RST, and the client's read fails with ECONNRESET before it sees anything): instead it is
/// answered `503 Service Unavailable` with `Retry-After`, its output is shut (the client reads
/// the answer and then the end), and what it sends is read and dropped for at most `linger`
/// and `drainLimit` bytes, then it is closed. `ConnectionSlots.refusalLimit` bounds how many
/// linger at once.
final class LingeringRefusal: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a refused client may take to send its request and read the 503.
    static let linger = TimeAmount.seconds(1)
    /// What a refused client may send before it is closed at once (a request head is far smaller).
    static let drainLimit = 8192
    /// Seconds, for Retry-After: a scrape comes back at its next interval anyway.
    static let retryAfter = 1

    static let answer: [UInt8] = {
        let body = "busy: too many connections, retry later\n"
        let head = [
            "HTTP/1.1 503 Service Unavailable", "Content-Type: text/plain", "Content-Length: \(body.utf8.count)",
            "Retry-After: \(retryAfter)", "Connection: close",
        ]
        return Array((head.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
    }()

    /// Tells a served connection still waiting for its request that it gave its place: it
    /// answers 503 this way (`MetricsEndpoints` puts this handler first in its pipeline).
    struct Refused {}

    private var drained = 0
    private var timer: Scheduled<Void>?

    func handlerAdded(context: ChannelHandlerContext) {
        // Put first in a pipeline whose connection is up already.
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if timer == nil { refuse(context) }
        context.fireChannelActive()
    }

    private func refuse(_ context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: Self.linger) { channel.close(promise: nil) }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: Self.answer))).whenComplete { _ in
            // The end follows the answer (NIO shuts the output once the write is done).
            channel.close(mode: .output, promise: nil)
        }
    }

    /// Already a refusal (it was set up as one): nothing more to do.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !(event is Refused) { context.fireUserInboundEventTriggered(event) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        drained += unwrapInboundIn(data).readableBytes
        if drained > Self.drainLimit { context.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }

    /// The client left first (a reset, a write to its shut side): nothing more to say.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
