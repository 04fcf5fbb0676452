import Crypto
import DNSSD
import FoundationEssentials
import NIOCore
import NIOPosix
import NIOSSL
import NIOSupport
import NIOTLS
import SwiftASN1
import X509

/// A probe's connection: TCP to one address, optionally TLS on top, with a WireObserver as
/// its first handler.
struct ProbeConnection: Sendable {
    let channel: any Channel
    let observer: NIOLoopBound<WireObserver>
    /// What this connection's own TLS handshake showed (set by `GatewayProbe.open`).
    var tls: TLSFacts?

    /// What the observer saw so far.
    func wire() async -> (bytes: Int, first: [UInt8], hello: ServerHello.Parse) {
        let observer = self.observer
        return
            (try? await channel.eventLoop.perform { (observer.value.bytesReceived, observer.value.firstBytes, observer.value.serverHello) })
            ?? (0, [], .needMore)
    }

    func close() {
        channel.close(promise: nil)
    }

    // MARK: TCP

    static func connect(to address: IPAddress, port: Int, timeout: Duration) async -> Result<ProbeConnection, TCPAttempt.Outcome> {
        guard timeout > .zero else { return .failure(.failed("not tried: the time budget (--timeout) was spent before its turn")) }
        let socketAddress: SocketAddress
        do { socketAddress = try address.socketAddress(port: port) } catch {
            return .failure(.unreachable("\(address) cannot be used as a socket address here"))
        }
        // On the loop this task runs on, when it runs on one (watch's probes prefer theirs):
        // the phases then await the channel's futures without leaving the loop's thread.
        let group: any EventLoopGroup = MultiThreadedEventLoopGroup.currentEventLoop ?? MultiThreadedEventLoopGroup.singleton
        let connecting = ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(timeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(WireObserver(), name: "observer")
                }
            }
            .connect(to: socketAddress)
        do {
            // A cancelled probe (SIGTERM, --timeout) stops waiting at once; a connection that
            // opens after that is closed (the connect timeout bounds one that never does).
            let channel: any Channel
            do { channel = try await connecting.valueUnlessCancelled() } catch {
                connecting.whenSuccess { $0.close(promise: nil) }
                throw error
            }
            // Its handlers are gone when the server closed the connection as soon as it accepted it.
            guard
                let observer = try? await channel.eventLoop.perform({
                    NIOLoopBound(try channel.pipeline.syncOperations.handler(type: WireObserver.self), eventLoop: channel.eventLoop)
                })
            else {
                channel.close(promise: nil)
                return .failure(.reset)
            }
            return .success(ProbeConnection(channel: channel, observer: observer))
        } catch {
            return .failure(classify(error))
        }
    }

    static func classify(_ error: any Error) -> TCPAttempt.Outcome {
        switch SocketError(error) {
        case .refused?: .refused
        case .timedOut?: .timedOut
        case .noRoute(let why)?, .unusableAddress(let why)?: .unreachable(why)
        case .localShortage(let why)?: .localShortage(why)
        case .reset?: .reset
        default: .failed(describe(error))
        }
    }

    // MARK: TLS

    /// The TLS handshake on this connection. Nothing is refused here: Gateways use self-signed
    /// certificates and clients pin the fingerprint, which doctor checks itself, and whether
    /// credentials may follow is `CredentialPolicy`'s decision, made on the chain recorded here.
    /// TLS 1.2 is allowed so that a 1.2-only server can be named as such.
    func startTLS(host: String, keyExchange: TLSKeyExchange, timeout: Duration) async -> TLSOutcome {
        let serverName = IPAddress(host) == nil ? host : nil  // SNI must not be an IP literal
        let promise = channel.eventLoop.makePromise(of: Void.self)
        defer { promise.fail(ProbeTimeout()) }  // ends the promise on every path
        let presented: NIOLoopBoundBox<[NIOSSLCertificate]>
        do {
            let context = try Self.clientContext(keyExchange)
            presented = try await channel.eventLoop.perform { [channel] in
                let chain = NIOLoopBoundBox<[NIOSSLCertificate]>([], eventLoop: channel.eventLoop)
                let sync = channel.pipeline.syncOperations
                let handler = try NIOSSLClientHandler(
                    context: context, serverHostname: serverName,
                    customVerificationCallback: { certificates, verified in
                        chain.value = certificates
                        verified.succeed(.certificateVerified)
                    })
                try sync.addHandler(handler)
                try sync.addHandler(HandshakeWatcher(promise: promise))
                return chain
            }
        } catch {
            return .handshakeFailed(Self.describe(error))
        }
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) { promise.fail(ProbeTimeout()) }
        defer { timer.cancel() }
        do {
            try await promise.valueUnlessCancelled()
        } catch {
            let wire = await wire()
            switch wire.hello {
            case .notTLS: return .notTLS(firstBytes: wire.first)
            case .alert(let code): return .alert(TLSAlert(code: code))
            default: break
            }
            if error is ProbeTimeout { return .timedOut(bytesReceived: wire.bytes) }
            return .handshakeFailed(Self.describe(error))
        }
        let peer: (TLSVersion?, [UInt8]?, [[UInt8]])? = try? await channel.eventLoop.perform { [channel] in
            let handler = try channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self)
            let chain: [[UInt8]] = try presented.value.map { try $0.toDERBytes() }
            return (handler.tlsVersion, try handler.peerCertificate?.toDERBytes(), chain)
        }
        let (version, der, chain) = peer ?? (nil, nil, [])
        guard let der else { return .handshakeFailed("the server presented no certificate") }
        let hello = await wire().hello
        var cipher: String?
        if case .hello(let parsed) = hello { cipher = parsed.cipherName }
        let fingerprint = TLSFingerprint(digest: Array(SHA256.hash(data: der)))
        let (certificate, problem) = CertificateMemo.facts(der, fingerprint: fingerprint)
        return .established(
            TLSFacts(
                version: version.map(Self.protocolVersion) ?? (Self.helloVersion(hello) ?? .unknown), cipher: cipher,
                fingerprint: fingerprint, certificate: certificate, certificateProblem: problem,
                chain: chain.isEmpty ? [der] : chain))
    }

    /// One client context per key exchange for every handshake: its configuration never
    /// changes, and watch makes thousands of handshakes.
    private static func clientContext(_ keyExchange: TLSKeyExchange) throws -> NIOSSLContext {
        switch keyExchange {
        case .withPostQuantum: try postQuantumContext.get()
        case .classical: try classicalContext.get()
        }
    }

    private static let postQuantumContext = Result { try makeClientContext(.withPostQuantum) }
    private static let classicalContext = Result { try makeClientContext(.classical) }

    /// Verification is on, with a callback that accepts every chain and keeps it: NIOSSL hands
    /// the presented chain only to such a callback (with .none it is never called).
    private static func makeClientContext(_ keyExchange: TLSKeyExchange) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .noHostnameVerification
        configuration.trustRoots = .certificates([])
        configuration.minimumTLSVersion = .tlsv12
        configuration.curves = keyExchange.curves
        return try NIOSSLContext(configuration: configuration)
    }

    private static func protocolVersion(_ version: TLSVersion) -> TLSProtocolVersion {
        switch version {
        case .tlsv13: .tls13
        case .tlsv12: .tls12
        case .tlsv11: .tls11
        case .tlsv1: .tls10
        }
    }

    private static func helloVersion(_ hello: ServerHello.Parse) -> TLSProtocolVersion? {
        if case .hello(let parsed) = hello { return parsed.protocolVersion }
        return nil
    }
}

struct ProbeTimeout: Error {}

/// Completes when the TLS handshake does, fails when the connection errs or closes first.
final class HandshakeWatcher: ChannelInboundHandler {
    typealias InboundIn = NIOAny
    private let promise: EventLoopPromise<Void>

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tls = event as? TLSUserEvent, case .handshakeCompleted = tls { promise.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}

extension CertificateFacts {
    /// Reads the facts an operator needs from a DER certificate (swift-certificates).
    static func read(_ der: [UInt8]) -> (CertificateFacts?, String?) {
        do {
            let certificate = try Certificate(derEncoded: der)
            var names: [String] = []
            if let alternatives = try? certificate.extensions.subjectAlternativeNames {
                for name in alternatives {
                    switch name {
                    case .dnsName(let dns): names.append("DNS:\(dns)")
                    case .ipAddress(let bytes): names.append("IP:\(IPAddress(bytes: Array(bytes.bytes))?.description ?? "?")")
                    default: names.append("\(name)")
                    }
                }
            }
            let selfSigned =
                certificate.issuer == certificate.subject
                && certificate.publicKey.isValidSignature(certificate.signature, for: certificate)
            return (
                CertificateFacts(
                    subject: certificate.subject.description, issuer: certificate.issuer.description,
                    subjectAlternativeNames: names, notBefore: certificate.notValidBefore, notAfter: certificate.notValidAfter,
                    selfSigned: selfSigned, publicKey: "\(certificate.publicKey)".prefix(80).description), nil
            )
        } catch {
            return (nil, "the certificate does not parse as X.509 (DER)")
        }
    }
}
