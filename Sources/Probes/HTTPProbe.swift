import NIOCore
import NIOHTTP1
import NIOSupport

/// `GET path` on an open probe connection (the Gateway serves plain HTTP on its WebSocket
/// port: /healthz, /readyz). A body over 64 KiB is not read to its end: no Gateway sends one.
enum HTTPProbe {
    static let bodyLimit = 65_536

    static func get(_ path: String, host: String, on connection: ProbeConnection, timeout: Duration) async -> HTTPOutcome {
        let channel = connection.channel
        let promise = channel.eventLoop.makePromise(of: CollectedResponse.self)
        defer { promise.fail(ProbeTimeout()) }  // ends the promise on every path
        do {
            try await channel.eventLoop.perform {
                let sync = channel.pipeline.syncOperations
                try sync.addHTTPClientHandlers()
                try sync.addHandler(ResponseCollector(promise: promise))
            }
        } catch {
            return .failed(ProbeConnection.describe(error))
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: host)
        headers.add(name: "User-Agent", value: "clawnet")
        headers.add(name: "Connection", value: "close")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) { promise.fail(ProbeTimeout()) }
        defer { timer.cancel() }
        do {
            let response = try await promise.valueUnlessCancelled()
            return .response(status: response.status, body: response.body, server: response.server, via: response.via)
        } catch is ProbeTimeout {
            return .timedOut(bytesReceived: await connection.wire().bytes)
        } catch {
            return .failed(ProbeConnection.describe(error))
        }
    }
}

/// One HTTP response as the probe keeps it.
struct CollectedResponse {
    let status: Int
    let body: String
    let server: String?
    let via: String?
}

/// Collects one HTTP response: status, Server and Via headers and body, at most `HTTPProbe.bodyLimit` of it.
final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    /// A Server or Via header longer than this is cut: it only names the program.
    static let serverLimit = 120
    private let promise: EventLoopPromise<CollectedResponse>
    private var status = 0
    private var server: String?
    private var via: String?
    private var body: [UInt8] = []

    init(promise: EventLoopPromise<CollectedResponse>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            server = head.headers.first(name: "Server").map { String($0.prefix(Self.serverLimit)) }
            via = head.headers.first(name: "Via").map { String($0.prefix(Self.serverLimit)) }
        case .body(let buffer):
            guard body.count + buffer.readableBytes <= HTTPProbe.bodyLimit else {
                promise.fail(BodyTooLarge())
                context.close(promise: nil)
                return
            }
            body += buffer.readableBytesView
        case .end:
            promise.succeed(collected)
        }
    }

    private var collected: CollectedResponse {
        CollectedResponse(status: status, body: String(decoding: body, as: UTF8.self), server: server, via: via)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if status != 0 {
            promise.succeed(collected)
        } else {
            promise.fail(ChannelError.eof)
        }
    }
}
