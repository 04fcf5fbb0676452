import DNSClient
import DNSSD
import Glibc
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSupport

/// Length-prefixed DNS messages over one TCP connection (RFC 1035 §4.2.2, RFC 7766): the
/// many answers of a zone transfer, or an UPDATE and its answer.
package enum DNSStream {
    /// One open connection, inside `exchange`.
    package struct Session {
        let server: DNSServer
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        let timedOut: NIOLockedValueBox<Bool>

        package func send(_ message: [UInt8]) async throws(DNSQueryFailure) {
            var buffer = ByteBuffer()
            buffer.writeInteger(UInt16(message.count))
            buffer.writeBytes(message)
            do { try await outbound.write(buffer) } catch {
                throw closedFailure("cannot send: \(error)")
            }
        }

        /// The next message; a connection that ends (or times out) first is a failure.
        package mutating func receive() async throws(DNSQueryFailure) -> [UInt8] {
            // Past the deadline, messages the connection buffered before it closed are not
            // handed out: each costs its caller a parse, and ten of a hostile transfer's took
            // seconds past --timeout.
            guard !timedOut.withLockedValue({ $0 }) else { throw .timeout(server, attempts: 1) }
            let next: ByteBuffer?
            do { next = try await inbound.next() } catch {
                throw closedFailure("\(error)")
            }
            guard let next else { throw closedFailure("the server closed the connection") }
            return Array(next.readableBytesView)
        }

        private func closedFailure(_ detail: String) -> DNSQueryFailure {
            timedOut.withLockedValue { $0 } ? .timeout(server, attempts: 1) : .unreachable(server, "TCP: \(detail)")
        }
    }

    /// Connects to `server`, runs `body`, closes. The whole exchange is bounded by `timeout`:
    /// then the connection is closed under `body`, whose next receive fails with a timeout.
    package static func exchange<Result>(
        with server: DNSServer, timeout: Duration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        _ body: (inout Session) async throws -> Result
    ) async throws -> Result {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.nanoseconds(nanoseconds))
                .connect(to: try server.address.socketAddress(port: server.port)) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LengthPrefixedDecoder()))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch let error as IOError where error.errnoCode == ECONNREFUSED {
            throw DNSQueryFailure.unreachable(server, "nothing listens on that port (connection refused)")
        } catch is ChannelError {
            throw DNSQueryFailure.timeout(server, attempts: 1)
        } catch {
            throw DNSQueryFailure.unreachable(server, "TCP: \(error)")
        }
        let timedOut = NIOLockedValueBox(false)
        let deadline = channel.channel.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { [channel] in
            timedOut.withLockedValue { $0 = true }
            channel.channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        return try await channel.executeThenClose { inbound, outbound in
            var session = Session(server: server, outbound: outbound, inbound: inbound.makeAsyncIterator(), timedOut: timedOut)
            return try await body(&session)
        }
    }
}
