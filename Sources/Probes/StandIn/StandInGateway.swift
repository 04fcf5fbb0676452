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
package final class StandInGateway: Sendable {
    package let port: Int
    package let address: String
    /// The certificate's SHA-256, for the TXT and for pinning.
    package let fingerprint: TLSFingerprint?
    private let channel: any Channel
    private let connections: StandInConnections
    /// The connections it holds, by address.
    let budget: StandInBudget

    private init(
        channel: any Channel, address: String, port: Int, fingerprint: TLSFingerprint?, connections: StandInConnections,
        budget: StandInBudget
    ) {
        self.channel = channel
        self.address = address
        self.port = port
        self.fingerprint = fingerprint
        self.connections = connections
        self.budget = budget
    }

    /// The stand-in's own event loop: its TLS work (an RSA signature per handshake, slow in a
    /// debug build of BoringSSL) must never hold the loops where probes in the same process
    /// time their phases, or a refused connection is read only after its timeout fired.
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Why `start` failed, in words.
    package static func describe(_ error: any Error) -> String {
        ProbeConnection.describe(error)
    }

    /// How long a connection may take to log in (hello-ok) before it is closed: OpenClaw's
    /// pre-auth handshake limit, whether the client is silent, trickles half a request, or
    /// holds a WebSocket open without a connect request.
    package static let handshakeTimeout = StandInLimits().handshake

    /// What the stand-in calls with each connect request it answers: the client's address, and
    /// what the request showed (never the token itself).
    package typealias ConnectObserver = @Sendable (String, StandInConnect.Received) -> Void
    /// What the stand-in calls with each upgrade its gate refuses: the client's address and the refusal.
    package typealias UpgradeObserver = @Sendable (String, StandInUpgradeGate.Refusal) -> Void

    /// Listens on `host`:`port`; with an identity, TLS 1.3 only. `limits` bound the connections
    /// (`handshakeTimeout` replaces its handshake limit).
    package static func start(
        host: String, port: Int, identity: StandInIdentity?, connect: StandInConnect = StandInConnect(),
        handshakeTimeout: Duration = handshakeTimeout, limits: StandInLimits = StandInLimits(), observer: ConnectObserver? = nil,
        admission: StandInAdmission = StandInAdmission(), gate: StandInUpgradeGate = StandInUpgradeGate(), refused: UpgradeObserver? = nil
    ) async throws -> StandInGateway {
        let context = try identity.map { try $0.serverContext() }
        var limits = limits
        limits.handshake = handshakeTimeout
        let budget = StandInBudget(limits: limits)
        let connections = StandInConnections()
        let session = StandInSession.Setup(connect: connect, observer: observer, admission: admission)
        let keeper = StandInUpgradeGateKeeper(gate: gate, observer: refused)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Past the limit a connection is closed at once, or takes the place of a
                    // waiting one: the descriptors beyond it are the ones advertise needs to
                    // withdraw its records, and one address cannot hold every place.
                    let address = channel.remoteAddress?.ipAddress ?? "?"
                    guard case .admitted(let evicted) = budget.admit(channel, from: address) else {
                        channel.close(promise: nil)
                        return
                    }
                    evicted?.close(promise: nil)
                    connections.add(channel)
                    channel.closeFuture.whenComplete { _ in
                        budget.connectionClosed(channel)
                        connections.remove(channel)
                    }
                    let ticket = StandInAdmissionTicket(budget: budget, channel: channel, address: address)
                    try addHandlers(channel, context: context, ticket: ticket, session: session, keeper: keeper)
                }
            }
            .bind(host: host, port: port).get()
        return StandInGateway(
            channel: channel, address: host, port: channel.localAddress?.port ?? port, fingerprint: try identity?.fingerprint(),
            connections: connections, budget: budget)
    }

    /// The deadline, TLS, HTTP (health, the 503 of a full budget, the gate's refusals) and the
    /// upgrade to the session.
    private static func addHandlers(
        _ channel: any Channel, context: NIOSSLContext?, ticket: StandInAdmissionTicket, session: StandInSession.Setup,
        keeper: StandInUpgradeGateKeeper
    ) throws {
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(HandshakeDeadline(ticket: ticket, limit: ticket.limits.handshake))
        if let context { try sync.addHandler(NIOSSLServerHandler(context: context)) }
        // What the gate decides of an upgrade, for `UpgradeRefusals` to answer.
        let verdict = NIOLoopBoundBox<StandInUpgradeGate.Refusal?>(nil, eventLoop: channel.eventLoop)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: StandInSession.preauthFrameLimit, automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                // The gate first (a restart, a rate limit, proxy attribution answer before the
                // socket counts); then the per-address budget, taken at the upgrade as the Gateway takes it.
                verdict.value = keeper.refusal(remote: channel.remoteAddress?.ipAddress ?? "?", headers: head.headers)
                let admitted = verdict.value == nil && ticket.acquire()
                return channel.eventLoop.makeSucceededFuture(admitted ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                // The health handler speaks HTTP; from here on the wire carries frames.
                channel.pipeline.removeHandler(name: "health").flatMap {
                    channel.pipeline.removeHandler(name: UpgradeRefusals.name)
                }.flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(StandInSession(session, ticket: ticket, upgrade: head.headers))
                }
            })
        try sync.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
        try sync.addHandler(UpgradeRefusals(verdict: verdict), name: UpgradeRefusals.name)
        try sync.addHandler(HealthEndpoints(ticket: ticket), name: "health")
    }

    /// Stops listening and closes every connection (their descriptors are free once it returns).
    package func stop() async {
        try? await channel.close()
        await connections.closeAll()
    }
}

/// The stand-in's certificate and key, as PEM: made now, or an existing pair (for example
/// the Gateway's own, so that nodes see the fingerprint they pinned).
package struct StandInIdentity: Sendable {
    package let certificatePEM: String
    package let keyPEM: String

    package init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }

    /// A certificate as the Gateway makes its own: RSA 2048, CN=openclaw-gateway, no SANs,
    /// self-signed, valid for a year.
    package static func make() throws -> StandInIdentity {
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
    package func fingerprint() throws -> TLSFingerprint {
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
/// An upgrade the per-address budget refused gets the Gateway's 503 (attachGatewayUpgradeHandler
/// in src/gateway/server-http.ts).
final class HealthEndpoints: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private let ticket: StandInAdmissionTicket?
    private var path: String?

    init(ticket: StandInAdmissionTicket? = nil) {
        self.ticket = ticket
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            path = head.uri
        case .body:
            break
        case .end:
            if ticket?.refusedForBudget == true {
                respond(context, .serviceUnavailable, "Too many unauthenticated sockets", type: "text/plain; charset=utf-8")
                return
            }
            let (status, body): (HTTPResponseStatus, String) =
                switch path {
                case "/health", "/healthz": (.ok, #"{"ok":true,"status":"live"}"#)
                case "/ready", "/readyz": (.ok, #"{"ok":true,"status":"ready"}"#)
                default: (.notFound, #"{"ok":false,"error":"not found"}"#)
                }
            respond(context, status, body + "\n", type: "application/json")
        }
    }

    private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ body: String, type: String) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
