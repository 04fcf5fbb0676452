import NIOCore
import NIOHTTP1

/// `GET path` on an open probe connection (the Gateway serves plain HTTP on its WebSocket
/// port: /healthz, /readyz). A body over 64 KiB is not read to its end: no Gateway sends one.
enum HTTPProbe {
    static let bodyLimit = 65_536

    static func get(_ path: String, host: String, on connection: ProbeConnection, timeout: Duration) async -> HTTPOutcome {
        let channel = connection.channel
        let promise = channel.eventLoop.makePromise(of: (Int, String, String?).self)
        defer { promise.fail(ProbeTimeout()) }  // ends the promise on every path
        do {
            try await channel.eventLoop.submit {
                let sync = channel.pipeline.syncOperations
                try sync.addHTTPClientHandlers()
                try sync.addHandler(ResponseCollector(promise: promise))
            }.get()
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
            let (status, body, server) = try await promise.futureResult.get()
            return .response(status: status, body: body, server: server)
        } catch is ProbeTimeout {
            return .timedOut(bytesReceived: await connection.wire().bytes)
        } catch {
            return .failed(ProbeConnection.describe(error))
        }
    }
}

/// Collects one HTTP response: status, Server header and body, at most `HTTPProbe.bodyLimit` of it.
final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    /// A Server header longer than this is cut: it only names the program.
    static let serverLimit = 120
    private let promise: EventLoopPromise<(Int, String, String?)>
    private var status = 0
    private var server: String?
    private var body: [UInt8] = []

    init(promise: EventLoopPromise<(Int, String, String?)>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            server = head.headers.first(name: "Server").map { String($0.prefix(Self.serverLimit)) }
        case .body(let buffer):
            guard body.count + buffer.readableBytes <= HTTPProbe.bodyLimit else {
                promise.fail(BodyTooLarge())
                context.close(promise: nil)
                return
            }
            body += buffer.readableBytesView
        case .end:
            promise.succeed((status, String(decoding: body, as: UTF8.self), server))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if status != 0 {
            promise.succeed((status, String(decoding: body, as: UTF8.self), server))
        } else {
            promise.fail(ChannelError.eof)
        }
    }
}
