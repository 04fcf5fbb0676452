import DNSSD
import DNSWire
import Glibc
import NIOCore
import NIOEmbedded
import NIOPosix
import NIOSupport
import Testing

@testable import DNSClient

/// The UDP query handler and the TCP framing, in memory: no socket, no server, the event
/// loop's clock moved by hand.
@Suite("DNS client handlers (EmbeddedChannel)")
struct DNSHandlerTests {
    static let server = DNSServer(address: IPAddress("127.0.0.1")!, port: 5300)
    static let name = try! DNSName(presentation: "_openclaw-gw._tcp.openclaw.internal.")

    @Test("options within a bound: every try and the TCP retry of a truncated answer fit in it; never slower than the defaults")
    func optionsWithin() {
        for seconds in [1, 2, 3] {
            let options = DNSClient.Options(within: .seconds(seconds))
            #expect(options.attemptTimeout * options.attempts <= .seconds(seconds), "\(seconds) s: \(options.attemptTimeout)")
        }
        #expect(DNSClient.Options(within: .seconds(6)).attemptTimeout == DNSClient.Options().attemptTimeout)
    }

    /// A channel with the handler, "connected" to the server, and the handler to submit to.
    func channel(attempts: Int = 3, maxInFlight: Int = 100) throws -> (EmbeddedChannel, DNSUDPHandler) {
        var options = DNSClient.Options()
        options.attempts = attempts
        options.maxInFlight = maxInFlight
        let handler = DNSUDPHandler(server: Self.server, options: options)
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: try Self.server.socketAddress).wait()
        return (channel, handler)
    }

    func question(_ type: RRType = .ptr) throws -> DNSQuestion {
        DNSQuestion(name: Self.name, type: type, wire: try DNSWireCodec.query(name: Self.name, type: type, id: 0))
    }

    /// The queries written so far, as wire bytes.
    func sent(_ channel: EmbeddedChannel) throws -> [[UInt8]] {
        var sent: [[UInt8]] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            sent.append(Array(buffer.readableBytesView))
        }
        return sent
    }

    /// An answer to `query`: the same bytes with QR set (no records, NOERROR).
    func answer(to query: [UInt8]) -> AddressedEnvelope<ByteBuffer> {
        var bytes = query
        bytes[2] |= 0x80
        return AddressedEnvelope(remoteAddress: try! Self.server.socketAddress, data: ByteBuffer(bytes: bytes))
    }

    @Test("a query goes out with a fresh id; the answer that echoes id and question completes it")
    func answered() throws {
        let (channel, handler) = try channel()
        let future = handler.submit(try question())
        let queries = try sent(channel)
        try #require(queries.count == 1, "\(queries.count) queries written")
        try channel.writeInbound(answer(to: queries[0]))
        let message = try future.wait()
        #expect(message.isResponse)
        #expect(message.question?.name == Self.name)
    }

    @Test("an answer for another question is ignored; after every try it is what the failure names")
    func spoofed() throws {
        let (channel, handler) = try channel(attempts: 2)
        let future = handler.submit(try question(.ptr))
        var query = try sent(channel)[0]
        // The same id, another question: the SRV of the name.
        let other = try DNSWireCodec.query(name: Self.name, type: .srv, id: 0)
        query = Array(query.prefix(2)) + Array(other.dropFirst(2))
        try channel.writeInbound(answer(to: query))
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(try sent(channel).count == 1, "the retry")
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(throws: DNSQueryFailure.malformed(Self.server, "an answer for another question")) { try future.wait() }
    }

    @Test("no answer: the query is sent `attempts` times, then a timeout naming the tries")
    func timeout() throws {
        let (channel, handler) = try channel(attempts: 3)
        let future = handler.submit(try question())
        var writes = try sent(channel).count
        for _ in 0..<3 {
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(801))
            writes += try sent(channel).count
        }
        #expect(writes == 3)
        #expect(throws: DNSQueryFailure.timeout(Self.server, attempts: 3)) { try future.wait() }
    }

    @Test("ICMP port unreachable (ECONNREFUSED) fails every query on the socket with the cause")
    func refused() throws {
        let (channel, handler) = try channel()
        let first = handler.submit(try question(.ptr))
        let second = handler.submit(try question(.srv))
        channel.pipeline.fireErrorCaught(IOError(errnoCode: ECONNREFUSED, reason: "read"))
        let expected = DNSQueryFailure.refused(Self.server)
        #expect(throws: expected) { try first.wait() }
        #expect(throws: expected) { try second.wait() }
    }

    @Test("socket errors become failures in words, each with its own fix: a refused port is not an unreachable server")
    func socketFailures() {
        let refused = DNSQueryFailure.socket(
            IOError(errnoCode: ECONNREFUSED, reason: "connect(descriptor:addr:size:)"), server: Self.server)
        #expect(refused == .refused(Self.server))
        #expect(refused.description == "nothing listens on port 5300 of 127.0.0.1 (connection refused)")
        #expect(refused.fix.contains("no DNS server runs on 127.0.0.1 port 5300"))
        let noRoute = DNSQueryFailure.socket(IOError(errnoCode: EHOSTUNREACH, reason: "sendmsg"), server: Self.server)
        #expect(noRoute == .unreachable(Self.server, "no route to host"))
        #expect(noRoute.fix.contains("ip route get 127.0.0.1"))
        let closed = DNSQueryFailure.socket(ChannelError.eof, server: Self.server, over: "over TCP: ")
        #expect(closed.description == "cannot reach 127.0.0.1#5300: over TCP: the other side closed the connection")
        for failure in [refused, noRoute, closed] {
            #expect(!failure.description.contains("descriptor") && !failure.description.contains("errno"), "\(failure)")
        }
    }

    @Test(
        "a server no datagram can go to fails its query with the reason; nothing reaches NIO's writer",
        arguments: ["0.0.0.0", "::", "::ffff:0.0.0.0"])
    func unusableServer(address: String) async {
        let server = DNSServer(address: IPAddress(address)!, port: 53)
        let client = DNSClient()
        do {
            _ = try await client.query(Self.name, .ptr, server: server)
            Issue.record("a query to \(address) was answered")
        } catch {
            #expect(error.description.contains("unspecified address"), "\(error)")
        }
        await client.shutdown()
    }

    @Test("at most maxInFlight queries are out at once; the next starts when one finishes")
    func bounded() throws {
        let (channel, handler) = try channel(maxInFlight: 2)
        let futures = try [RRType.ptr, .srv, .txt].map { handler.submit(try question($0)) }
        let first = try sent(channel)
        #expect(first.count == 2)
        try channel.writeInbound(answer(to: first[0]))
        _ = try futures[0].wait()
        #expect(try sent(channel).count == 1, "the third query, once the first is answered")
    }

    @Test("questions submitted together go out in one flush; those that waited go out together once a burst of answers made room")
    func batched() throws {
        let counter = FlushCounter()
        var options = DNSClient.Options()
        options.maxInFlight = 2
        let handler = DNSUDPHandler(server: Self.server, options: options)
        let channel = EmbeddedChannel(handlers: [counter, handler])
        try channel.connect(to: try Self.server.socketAddress).wait()
        let futures = handler.submit(try [RRType.ptr, .srv, .txt, .a].map { try question($0) })
        let first = try sent(channel)
        #expect(first.count == 2 && counter.flushes == 1, "\(first.count) queries written, \(counter.flushes) flushes")
        // Two answers read in one go: the two waiting queries are written, and flushed together when the reads end.
        for query in first { channel.pipeline.syncOperations.fireChannelRead(NIOAny(answer(to: query))) }
        #expect(try sent(channel).isEmpty, "nothing flushed while answers are still being read")
        channel.pipeline.syncOperations.fireChannelReadComplete()
        let second = try sent(channel)
        #expect(second.count == 2 && counter.flushes == 2, "\(second.count) queries written, \(counter.flushes) flushes")
        for query in second { try channel.writeInbound(answer(to: query)) }
        for future in futures { #expect(try future.wait().isResponse) }
    }

    @Test("a closing socket fails every query, the queued ones too, without sending any of them")
    func closeFailsAll() throws {
        let (channel, handler) = try channel(maxInFlight: 1)
        let futures = try [RRType.ptr, .srv, .txt].map { handler.submit(try question($0)) }
        #expect(try sent(channel).count == 1)
        try channel.close().wait()
        for future in futures {
            #expect(throws: DNSQueryFailure.unreachable(Self.server, "socket closed")) { try future.wait() }
        }
    }

    @Test("a TCP query whose connection is refused fails with that cause and leaves no promise behind")
    func tcpRefused() async throws {
        // Port 9 (discard) on loopback: nothing listens there in the test bed or on a build machine.
        let server = DNSServer(address: IPAddress("127.0.0.1")!, port: 9)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        await #expect(throws: DNSQueryFailure.self) {
            try await TCPQuery.run(try question(), server: server, group: group, timeout: .seconds(2))
        }
        // Shutting the loop down releases the failed channel's handlers: a promise left
        // unfulfilled there traps in a debug build of NIO ("leaking promise").
        try await group.shutdownGracefully()
    }

    @Test("TCP framing: a length-prefixed message split across reads comes out whole, once")
    func framing() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LengthPrefixedDecoder()))
        let message: [UInt8] = Array(0..<40)
        let framed = [UInt8(0), UInt8(message.count)] + message + [0, 3, 9, 9, 9]
        for chunk in [framed[0..<1], framed[1..<17], framed[17...]] {
            try channel.writeInbound(ByteBuffer(bytes: chunk))
        }
        let first = try channel.readInbound(as: ByteBuffer.self)
        let second = try channel.readInbound(as: ByteBuffer.self)
        #expect(first.map { Array($0.readableBytesView) } == message)
        #expect(second.map { Array($0.readableBytesView) } == [9, 9, 9])
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
    }
}

/// Counts the flushes that pass it on their way to the socket.
private final class FlushCounter: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    private(set) var flushes = 0

    func flush(context: ChannelHandlerContext) {
        flushes += 1
        context.flush()
    }
}
