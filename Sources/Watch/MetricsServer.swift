import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix

/// The HTTP endpoint `watch --metrics-listen` serves: /metrics (the Prometheus text format) and
/// /sd (Prometheus's http_sd list of the Gateways found), read from the board at each request.
/// SwiftNIO's HTTP/1 server, one request per connection; a client silent for `idleTimeout`
/// is closed, and nothing of a request but its head is kept.
public struct MetricsServer: Sendable {
    let channel: any Channel
    /// The port it listens on (the one asked for, or the one the system chose for 0).
    public let port: Int

    static let idleTimeout = TimeAmount.seconds(10)

    public static func start(host: String, port: Int, board: WatchBoard, gatewayLimit: Int) async throws -> MetricsServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 64)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(IdleStateHandler(readTimeout: idleTimeout))
                    try sync.configureHTTPServerPipeline(withErrorHandling: true)
                    try sync.addHandler(MetricsEndpoints(board: board, gatewayLimit: gatewayLimit))
                }
            }
            .bind(host: host, port: port).get()
        return MetricsServer(channel: channel, port: channel.localAddress?.port ?? port)
    }

    /// Why `start` failed, in words (the errno's text, not NIO's type name).
    public static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return error.description }
        return "\(error)"
    }

    public func stop() async {
        try? await channel.close()
    }
}

/// Answers GET /metrics and GET /sd; anything else is 404 (405 for another method).
final class MetricsEndpoints: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private let board: WatchBoard
    private let gatewayLimit: Int
    private var head: HTTPRequestHead?

    init(board: WatchBoard, gatewayLimit: Int) {
        self.board = board
        self.gatewayLimit = gatewayLimit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end: respond(context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent { context.close(promise: nil) } else { context.fireUserInboundEventTriggered(event) }
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
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        head = nil
    }
}
