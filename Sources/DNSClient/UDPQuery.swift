import DNSSD
import DNSWire
import NIOCore
import NIOPosix
import NIOSupport

/// A connected UDP socket to one server and the queries in flight on it.
final class UDPQueryChannel: Sendable {
    let channel: any Channel
    private let handler: NIOLoopBound<DNSUDPHandler>

    private init(channel: any Channel, handler: NIOLoopBound<DNSUDPHandler>) {
        self.channel = channel
        self.handler = handler
    }

    static func connect(to server: DNSServer, group: any EventLoopGroup, options: DNSClient.Options) -> EventLoopFuture<UDPQueryChannel> {
        let eventLoop = group.next()
        // NIO traps on a datagram to some addresses (0.0.0.0, ::): they never get that far.
        if let problem = server.address.destinationProblem {
            return eventLoop.makeFailedFuture(DNSQueryFailure.unreachable(server, problem))
        }
        let address: SocketAddress
        do { address = try server.socketAddress } catch {
            return eventLoop.makeFailedFuture(DNSQueryFailure.unreachable(server, "\(server.address) cannot be used as a socket address"))
        }
        return DatagramBootstrap(group: eventLoop)
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 65_536))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DNSUDPHandler(server: server, options: options))
                }
            }
            .connect(to: address)
            .flatMap { channel in
                channel.pipeline.handler(type: DNSUDPHandler.self).map { handler in
                    UDPQueryChannel(channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
                }
            }
            .flatMapErrorThrowing { error in throw DNSQueryFailure.socket(error, server: server) }
    }

    /// Every answer, or why there is none, once all have come.
    func submit(_ questions: [DNSQuestion]) -> EventLoopFuture<[Result<DNSMessage, any Error>]> {
        let (handler, eventLoop) = (self.handler, channel.eventLoop)
        return eventLoop.flatSubmit { EventLoopFuture.whenAllComplete(handler.value.submit(questions), on: eventLoop) }
    }
}

/// Owns the in-flight queries of one UDP socket; runs only on its event loop.
final class DNSUDPHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    /// The socket is connected: queries go out as bare buffers. An envelope would have to
    /// carry the peer's address exactly as NIO recorded it, and for an address the kernel
    /// rewrites on connect (0.0.0.0 and ::ffff:0.0.0.0 become 127.0.0.1) NIO traps instead.
    typealias OutboundOut = ByteBuffer

    private struct Pending {
        let question: DNSQuestion
        let promise: EventLoopPromise<DNSMessage>
        var attempt: Int
        var timer: Scheduled<Void>?
    }

    private let server: DNSServer
    private let options: DNSClient.Options
    private var context: ChannelHandlerContext?
    private var pending: [UInt16: Pending] = [:]
    private var waiting = CircularBuffer<(DNSQuestion, EventLoopPromise<DNSMessage>)>()
    /// Queries written while answers are being read: flushed together once the reads end.
    private var reading = false
    /// The newest non-matching answer, reported if a query then times out.
    private var lastMismatch: String?

    init(server: DNSServer, options: DNSClient.Options) {
        self.server = server
        self.options = options
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func submit(_ question: DNSQuestion) -> EventLoopFuture<DNSMessage> { submit([question])[0] }

    /// Questions submitted together go out together: written one after another and flushed
    /// once (the socket sends them in one system call); past `maxInFlight` they wait their turn.
    func submit(_ questions: [DNSQuestion]) -> [EventLoopFuture<DNSMessage>] {
        guard let context else {
            let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
            return questions.map { _ in server.failedFuture(on: eventLoop, .unreachable(server, "socket closed")) }
        }
        let futures = questions.map { question in
            let promise = context.eventLoop.makePromise(of: DNSMessage.self)
            if pending.count >= options.maxInFlight {
                waiting.append((question, promise))
            } else {
                start(question, promise, flush: false)
            }
            return promise.futureResult
        }
        context.flush()
        return futures
    }

    private func start(_ question: DNSQuestion, _ promise: EventLoopPromise<DNSMessage>, flush: Bool) {
        var id = UInt16.random(in: .min ... .max)
        while pending[id] != nil { id = UInt16.random(in: .min ... .max) }
        pending[id] = Pending(question: question, promise: promise, attempt: 0)
        send(id, flush: flush)
    }

    private func send(_ id: UInt16, flush: Bool = true) {
        guard let context, var query = pending[id] else { return }
        query.attempt += 1
        let bytes = query.question.wire(id: id)
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.write(wrapOutboundOut(buffer), promise: nil)
        if flush { context.flush() }
        query.timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(options.attemptTimeout)) { [self] in
            timedOut(id)
        }
        pending[id] = query
    }

    private func timedOut(_ id: UInt16) {
        guard let query = pending[id] else { return }
        if query.attempt < options.attempts {
            send(id)
        } else {
            finish(id, .failure(lastMismatch.map { DNSQueryFailure.malformed(server, $0) } ?? .timeout(server, attempts: query.attempt)))
        }
    }

    private func finish(_ id: UInt16, _ result: Result<DNSMessage, DNSQueryFailure>) {
        guard let query = pending.removeValue(forKey: id) else { return }
        query.timer?.cancel()
        switch result {
        case .success(let message): query.promise.succeed(message)
        case .failure(let failure): query.promise.fail(failure)
        }
        if let (next, promise) = waiting.popFirst() { start(next, promise, flush: !reading) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        reading = true
        let envelope = unwrapInboundIn(data)
        let bytes = Array(envelope.data.readableBytesView)
        guard bytes.count >= 2 else {
            lastMismatch = "a \(bytes.count)-byte datagram"
            return
        }
        let id = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        guard let query = pending[id] else { return }  // late or stray
        do {
            let message = try DNSWireCodec.decode(bytes)
            guard query.question.matches(message) else {
                lastMismatch = "an answer for another question"
                return
            }
            finish(id, .success(message))
        } catch {
            // Keep waiting for a good answer (a retry may get one); report it if none comes.
            lastMismatch = error.message
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // The queries that answered ones made room for go out together.
        if reading { context.flush() }
        reading = false
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // On a connected UDP socket an ICMP "port unreachable" arrives as ECONNREFUSED:
        // nothing listens there. Every query on this socket gets that answer.
        let failure = DNSQueryFailure.socket(error, server: server)
        for id in Array(pending.keys) { finish(id, .failure(failure)) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The waiting go first: finishing a pending query would start one of them on the closed socket.
        let queued = waiting
        waiting.removeAll()
        for (_, promise) in queued { promise.fail(DNSQueryFailure.unreachable(server, "socket closed")) }
        for id in Array(pending.keys) { finish(id, .failure(.unreachable(server, "socket closed"))) }
        self.context = nil
    }
}
