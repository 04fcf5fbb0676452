import DNSSD
import DNSWire
import NIOCore
import NIOPosix
import NIOSupport

/// One DNS query over TCP (RFC 1035 §4.2.2: a two-byte length before each message).
enum TCPQuery {
    static func run(_ question: DNSQuestion, server: DNSServer, group: any EventLoopGroup, timeout: Duration) async throws(DNSQueryFailure)
        -> DNSMessage
    {
        let id = UInt16.random(in: .min ... .max)
        let bytes: [UInt8]
        let message: DNSMessage
        do {
            if let problem = server.address.destinationProblem { throw DNSQueryFailure.unreachable(server, problem) }
            let address = try server.socketAddress
            let eventLoop = group.next()
            let promise = eventLoop.makePromise(of: [UInt8].self)
            // Ends the promise on every path: a connection that fails (refused, timed out)
            // never becomes active, so its handler never sees channelInactive.
            defer { promise.fail(DNSQueryFailure.timeout(server, attempts: 1)) }
            let connecting = ClientBootstrap(group: eventLoop)
                .connectTimeout(TimeAmount(timeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LengthPrefixedDecoder()))
                        try channel.pipeline.syncOperations.addHandler(FirstMessageHandler(promise: promise))
                    }
                }
                .connect(to: address)
            // The connect is non-blocking, on the event loop: a cancelled caller stops waiting
            // at once, and a connection that opens after that is closed (the connect timeout
            // bounds one that never does).
            let channel: any Channel
            do {
                channel = try await connecting.valueUnlessCancelled()
            } catch {
                connecting.whenSuccess { $0.close(promise: nil) }
                throw error
            }
            let deadline = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                promise.fail(DNSQueryFailure.timeout(server, attempts: 1))
            }
            var request = channel.allocator.buffer(capacity: question.wire.count + 2)
            request.writeInteger(UInt16(question.wire.count))
            request.writeBytes(question.wire(id: id))
            channel.writeAndFlush(request, promise: nil)
            defer {
                deadline.cancel()
                channel.close(promise: nil)
            }
            bytes = try await promise.futureResult.valueUnlessCancelled()
        } catch {
            throw .socket(error, server: server, over: "over TCP: ")
        }
        do {
            message = try DNSWireCodec.decode(bytes)
        } catch {
            throw .malformed(server, "over TCP: \(error.message)")
        }
        guard message.id == id, question.matches(message) else {
            throw .malformed(server, "over TCP: an answer for another question")
        }
        return message
    }
}

/// Splits a TCP stream into length-prefixed DNS messages (also used for zone transfers and
/// dynamic updates).
package struct LengthPrefixedDecoder: ByteToMessageDecoder {
    package typealias InboundOut = ByteBuffer

    package init() {}

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt16.self),
            buffer.readableBytes >= 2 + Int(length)
        else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 2)
        context.fireChannelRead(wrapInboundOut(buffer.readSlice(length: Int(length))!))
        return .continue
    }

    package mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }
}

/// Completes the promise with the first message, or fails it when the connection ends first.
private final class FirstMessageHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let promise: EventLoopPromise<[UInt8]>

    init(promise: EventLoopPromise<[UInt8]>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        promise.succeed(Array(unwrapInboundIn(data).readableBytesView))
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }
}
