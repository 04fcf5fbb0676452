import Crypto
import CryptoExtras
import DNSSD
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import SwiftASN1
import X509

/// Answers on a port like an OpenClaw Gateway does, without being one: `GET /healthz` and
/// `/readyz`, and on a WebSocket first `connect.challenge`, then an answer to `connect` as
/// `StandInConnect` decides (hello-ok, NOT_PAIRED, an auth error, ...) and the close that
/// follows it. With TLS it makes a self-signed certificate as the Gateway does (RSA 2048,
/// CN=openclaw-gateway, no SANs) and speaks TLS 1.3 only.
public final class StandInGateway: Sendable {
    public let port: Int
    public let address: String
    /// The certificate's SHA-256, for the TXT and for pinning.
    public let fingerprint: TLSFingerprint?
    private let channel: any Channel

    private init(channel: any Channel, address: String, port: Int, fingerprint: TLSFingerprint?) {
        self.channel = channel
        self.address = address
        self.port = port
        self.fingerprint = fingerprint
    }

    /// The stand-in's own event loop: its TLS work (an RSA signature per handshake, slow in a
    /// debug build of BoringSSL) must never hold the loops where probes in the same process
    /// time their phases, or a refused connection is read only after its timeout fired.
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Why `start` failed, in words.
    public static func describe(_ error: any Error) -> String {
        ProbeConnection.describe(error)
    }

    /// How long a connection may stay silent before its WebSocket opens: a node sends its
    /// request at once, a client that trickles half a request must not hold a connection.
    public static let handshakeTimeout = Duration.seconds(10)

    /// What the stand-in calls with each connect request it answers: the client's address, and
    /// what the request showed (never the token itself).
    public typealias ConnectObserver = @Sendable (String, StandInConnect.Received) -> Void
    /// What the stand-in calls with each upgrade its gate refuses: the client's address and the refusal.
    public typealias UpgradeObserver = @Sendable (String, StandInUpgradeGate.Refusal) -> Void

    /// Listens on `host`:`port`; with an identity, TLS 1.3 only.
    public static func start(
        host: String, port: Int, identity: StandInIdentity?, connect: StandInConnect = StandInConnect(),
        handshakeTimeout: Duration = handshakeTimeout, observer: ConnectObserver? = nil, admission: StandInAdmission = StandInAdmission(),
        gate: StandInUpgradeGate = StandInUpgradeGate(), refused: UpgradeObserver? = nil
    ) async throws -> StandInGateway {
        let context = try identity.map { try $0.serverContext() }
        let keeper = StandInUpgradeGateKeeper(gate: gate, observer: refused)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    // A client that sends half a request and waits holds a connection: until
                    // the WebSocket opens, silence longer than `handshakeTimeout` ends it.
                    try sync.addHandler(IdleStateHandler(readTimeout: TimeAmount(handshakeTimeout)), name: "idle")
                    try sync.addHandler(CloseWhenIdle(), name: "close-when-idle")
                    if let context { try sync.addHandler(NIOSSLServerHandler(context: context)) }
                    // What the gate decides of an upgrade, for `UpgradeRefusals` to answer.
                    let verdict = NIOLoopBoundBox<StandInUpgradeGate.Refusal?>(nil, eventLoop: channel.eventLoop)
                    let upgrader = NIOWebSocketServerUpgrader(
                        maxFrameSize: 1 << 16, automaticErrorHandling: true,
                        shouldUpgrade: { channel, head in
                            verdict.value = keeper.refusal(remote: channel.remoteAddress?.ipAddress ?? "?", headers: head.headers)
                            return channel.eventLoop.makeSucceededFuture(verdict.value == nil ? HTTPHeaders() : nil)
                        },
                        upgradePipelineHandler: { channel, head in
                            // The health handler speaks HTTP; from here on the wire carries frames.
                            channel.pipeline.removeHandler(name: "health").flatMap {
                                channel.pipeline.removeHandler(name: UpgradeRefusals.name)
                            }.flatMap {
                                channel.pipeline.removeHandler(name: "idle")
                            }.flatMap {
                                channel.pipeline.removeHandler(name: "close-when-idle")
                            }.flatMapThrowing {
                                try channel.pipeline.syncOperations.addHandler(
                                    StandInSession(connect: connect, observer: observer, admission: admission, upgrade: head.headers))
                            }
                        })
                    try sync.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    try sync.addHandler(UpgradeRefusals(verdict: verdict), name: UpgradeRefusals.name)
                    try sync.addHandler(HealthEndpoints(), name: "health")
                }
            }
            .bind(host: host, port: port).get()
        return StandInGateway(
            channel: channel, address: host, port: channel.localAddress?.port ?? port, fingerprint: try identity?.fingerprint())
    }

    public func stop() async {
        try? await channel.close()
    }
}

/// The stand-in's certificate and key, as PEM: made now, or an existing pair (for example
/// the Gateway's own, so that nodes see the fingerprint they pinned).
public struct StandInIdentity: Sendable {
    public let certificatePEM: String
    public let keyPEM: String

    public init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }

    /// A certificate as the Gateway makes its own: RSA 2048, CN=openclaw-gateway, no SANs,
    /// self-signed, valid for a year.
    public static func make() throws -> StandInIdentity {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let name = try DistinguishedName { CommonName("openclaw-gateway") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(365 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption, extensions: Certificate.Extensions(),
            issuerPrivateKey: Certificate.PrivateKey(key))
        return StandInIdentity(certificatePEM: try certificate.serializeAsPEM().pemString + "\n", keyPEM: key.pemRepresentation + "\n")
    }

    /// SHA-256 over the leaf's DER, as nodes pin it.
    public func fingerprint() throws -> TLSFingerprint {
        let leaf = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).first.orThrow("no certificate in the PEM")
        return TLSFingerprint(digest: Array(SHA256.hash(data: try leaf.toDERBytes())))
    }

    func serverContext() throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
        guard !chain.isEmpty else { throw StandInError("no certificate in the PEM") }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)))
        configuration.minimumTLSVersion = .tlsv13
        return try NIOSSLContext(configuration: configuration)
    }
}

struct StandInError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Optional {
    func orThrow(_ message: String) throws -> Wrapped {
        guard let self else { throw StandInError(message) }
        return self
    }
}

/// Plain HTTP on the WebSocket port: the Gateway's health endpoints.
final class HealthEndpoints: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private var path: String?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            path = head.uri
        case .body:
            break
        case .end:
            let (status, body): (HTTPResponseStatus, String) =
                switch path {
                case "/health", "/healthz": (.ok, #"{"ok":true,"status":"live"}"#)
                case "/ready", "/readyz": (.ok, #"{"ok":true,"status":"ready"}"#)
                default: (.notFound, #"{"ok":false,"error":"not found"}"#)
                }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: String(body.utf8.count + 1))
            headers.add(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body + "\n")))), promise: nil)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

/// One WebSocket client: connect.challenge first, then the answer to its connect request.
final class StandInSession: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame
    private let connect: StandInConnect
    private let observer: StandInGateway.ConnectObserver?
    private let admission: StandInAdmission
    /// The upgrade request's headers: what the admission reads (Origin, forwarded headers).
    private let upgrade: HTTPHeaders
    private let nonce = String(TLSFingerprint(digest: (0..<32).map { _ in UInt8.random(in: 0...255) }).hex.prefix(32))
    private var answered = false
    private var closing = false

    init(connect: StandInConnect, observer: StandInGateway.ConnectObserver?, admission: StandInAdmission, upgrade: HTTPHeaders) {
        self.connect = connect
        self.observer = observer
        self.admission = admission
        self.upgrade = upgrade
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let challenge = Challenge(payload: .init(nonce: nonce, ts: Int64(Date().timeIntervalSince1970 * 1000)))
        send(context, .text, context.channel.allocator.buffer(bytes: Self.json(challenge)))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            guard !answered else { return }
            answered = true
            var text = frame.unmaskedData
            let request = text.readString(length: text.readableBytes) ?? ""
            let nowMs = Int64(Date().timeIntervalSince1970 * 1000)
            let remote = context.channel.remoteAddress?.ipAddress ?? "?"
            let reply =
                admission.refusal(of: request, remote: remote, headers: upgrade) ?? connect.reply(to: request, nonce: nonce, nowMs: nowMs)
            if let observer, let received = connect.received(request) {
                observer(context.channel.remoteAddress?.ipAddress ?? "?", received)
            }
            for answer in reply.frames {
                send(context, .text, context.channel.allocator.buffer(string: answer))
            }
            if let (code, reason) = reply.close {
                var close = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
                close.writeInteger(code)
                close.writeString(reason)
                closing = true
                send(context, .connectionClose, close)
            }
        case .ping:
            send(context, .pong, frame.unmaskedData)
        case .connectionClose where closing:
            context.close(promise: nil)
        case .connectionClose:
            var echo = context.channel.allocator.buffer(capacity: 2)
            echo.write(webSocketErrorCode: .normalClosure)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: echo))).whenComplete { _ in
                channel.close(promise: nil)
            }
        default:
            break
        }
    }

    private func send(_ context: ChannelHandlerContext, _ opcode: WebSocketOpcode, _ data: ByteBuffer) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
    }

    // Frames as OpenClaw's protocol shapes them (the interop notes): built by an encoder, so a
    // request id from a client can never break out of its string.
    private struct Challenge: Encodable {
        struct Payload: Encodable {
            let nonce: String
            let ts: Int64
        }
        let type = "event"
        let event = "connect.challenge"
        let payload: Payload
    }

    private static func json(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}

/// Closes the connection when `IdleStateHandler` says nothing was read for its timeout.
final class CloseWhenIdle: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
