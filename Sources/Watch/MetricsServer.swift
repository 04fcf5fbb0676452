import FoundationEssentials
import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix

/// The HTTP endpoint `watch --metrics-listen` serves: /metrics (the Prometheus text format) and
/// /sd (Prometheus's http_sd list of the Gateways found), read from the board at each request.
/// SwiftNIO's HTTP/1 server, one request per connection, within bounds any local user may test:
/// at most `connectionLimit` connections at once (`ConnectionSlots`: a new one takes the place
/// of the oldest that has not asked yet, else of the oldest whose answer stands still; one
/// that gives its place while it waits, or finds none, is answered 503 and let go without a
/// reset, a quarter as many of those at once), a request must arrive whole within
/// `requestTimeout`, an answer must be written within `answerTimeout` and never stand still
/// for `stallTimeout`, and a connection lives at most `connectionLifetime`, so that slow
/// clients (ones that never read their answer among them) can neither hold the server nor
/// take the descriptors watch's probes need (a Gateway would be judged down for want of one).
package struct MetricsServer: Sendable {
    let channel: any Channel
    let group: MultiThreadedEventLoopGroup
    /// The port it listens on (the one asked for, or the one the system chose for 0).
    package let port: Int
    /// The connections it holds now.
    let slots: ConnectionSlots

    /// A client that has not sent its whole request by then is closed (Prometheus sends its
    /// request at once; its scrape timeout is 10 s by default).
    static let requestTimeout = TimeAmount.seconds(5)
    /// The longest a connection stays, answered or not.
    static let connectionLifetime = TimeAmount.seconds(30)
    /// An answer not written whole by then is closed (Prometheus's default scrape timeout).
    static let answerTimeout = TimeAmount.seconds(10)
    /// An answer that makes no progress for this long is closed: the client does not read it.
    static let stallTimeout = TimeAmount.seconds(3)
    /// An answer that has made no progress for this long may give its slot to a newcomer.
    static let stallGrace = TimeAmount.seconds(1)
    /// Each connection's kernel send buffer (the kernel doubles it): an answer no one reads pins
    /// this much kernel memory, not the megabytes autotuning would give, and stands still once
    /// it is full.
    static let sendBuffer = 65_536
    /// Connections at once: Prometheus uses one per scrape, a few scrapers a few.
    package static let maxConnections = 64

    package static func start(
        host: String, port: Int, board: WatchBoard, gatewayLimit: Int, connectionLimit: Int = maxConnections
    ) async throws -> MetricsServer {
        // Each server's own event loop, so that its timers fire on time: on the shared loops the
        // probes' TLS work (slow in a debug build of BoringSSL), watch's probing tasks and, in
        // the tests, other servers' answers held them past 10 s on a loaded machine.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            return try await start(host: host, port: port, board: board, gatewayLimit: gatewayLimit, connectionLimit, on: group)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private static func start(
        host: String, port: Int, board: WatchBoard, gatewayLimit: Int, _ connectionLimit: Int, on group: MultiThreadedEventLoopGroup
    ) async throws -> MetricsServer {
        let slots = ConnectionSlots(limit: connectionLimit)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 64)
            .childChannelOption(.socketOption(.so_sndbuf), value: sendBuffer)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(ConnectionAdmission(slots: slots)) }
            }
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if slots.isRefused(channel) { return try sync.addHandler(LingeringRefusal()) }
                    // Its own error handling: one 400, at once (NIO's answered an HTTP/0.9 line twice).
                    try sync.configureHTTPServerPipeline(withErrorHandling: false)
                    try sync.addHandler(MetricsEndpoints(board: board, gatewayLimit: gatewayLimit, slots: slots))
                }
            }
            .bind(host: host, port: port).get()
        return MetricsServer(channel: channel, group: group, port: channel.localAddress?.port ?? port, slots: slots)
    }

    /// How many connections the server may hold when the process may open `descriptorLimit`
    /// files and `reserved` of them are kept for everything else (the probes, discovery): at
    /// most `maxConnections`, at least a few, so that /metrics still answers.
    /// The refusals that linger (`ConnectionSlots.refusalLimit`, a quarter more) come out of the same budget.
    package static func connectionLimit(descriptorLimit: Int, reserved: Int) -> Int {
        min(maxConnections, max(minimumConnections, (descriptorLimit - reserved) * 4 / 5))
    }

    /// `connectionLimit` for this process's limit of open files (RLIMIT_NOFILE, soft).
    package static func connectionLimit(reserved: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return maxConnections }
        return connectionLimit(descriptorLimit: Int(clamping: limit.rlim_cur), reserved: reserved)
    }

    static let minimumConnections = 4

    /// Why `start` failed, in words (the errno's text, not NIO's type name).
    package static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return error.description }
        return "\(error)"
    }

    /// Stops listening and ends every connection (and the server's thread).
    package func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

/// On the listening channel, before NIO sets up each accepted connection: admits it into
/// `slots` in the order connections were accepted (the child channels' own loops would take
/// them in any order), or closes it.
final class ConnectionAdmission: ChannelInboundHandler {
    typealias InboundIn = any Channel
    private let slots: ConnectionSlots

    init(slots: ConnectionSlots) {
        self.slots = slots
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        // A refused one is set up as a `LingeringRefusal`: a 503, never a reset.
        let admission = slots.admit(child)
        admission.closed.forEach { $0.close(promise: nil) }
        admission.refused?.pipeline.fireUserInboundEventTriggered(LingeringRefusal.Refused())
        let slots = self.slots
        child.closeFuture.whenComplete { _ in slots.release(child) }
        context.fireChannelRead(data)
    }
}
