import NIOCore
import NIOSupport
import NIOWebSocket

/// The connect request after `connect.challenge`, on the WebSocket the probe opened: the
/// first-frame handler steps aside, this one sends the request and reads the answer, then the
/// close (the Gateway closes with a code and reason after a failed handshake; after hello-ok
/// doctor says goodbye itself). A pairing refusal the Gateway keeps open (waitForResolution)
/// may be followed by the operator's decision, `device.pair.resolved`, before the close:
/// rejected and expired become PAIRING_REJECTED and PAIRING_EXPIRED, as OpenClaw's client
/// turns them (docs/gateway/protocol/auth.md).
enum ConnectExchange {
    /// The answer can be large: hello-ok lists every method and carries a snapshot. Bounded all
    /// the same: 1 MiB, well above any Gateway's hello-ok and far below its 25 MB limit.
    static let answerLimit = 1 << 20
    /// Frames the Gateway may send before its answer (events) that are skipped.
    static let maxSkippedFrames = 8
    /// How long to wait for the close that follows a rejection, or for the echo of ours.
    static let closeWait = TimeAmount.milliseconds(500)

    static func run(_ request: ConnectRequest, nonce: String, on channel: any Channel, timeout: Duration) async -> ConnectOutcome {
        let answer = channel.eventLoop.makePromise(of: ConnectOutcome.self)
        let closed = channel.eventLoop.makePromise(of: Closing.self)
        defer {
            answer.fail(ProbeTimeout())
            closed.fail(ProbeTimeout())
        }
        let frame = request.frame(nonce: nonce)
        do {
            try await channel.eventLoop.flatSubmit {
                channel.pipeline.removeHandler(name: WebSocketProbe.firstFrameHandlerName).flatMapThrowing {
                    let handler = ConnectExchangeHandler(requestId: request.id, answer: answer, closed: closed)
                    try channel.pipeline.syncOperations.addHandler(handler)
                    let data = channel.allocator.buffer(bytes: frame)
                    channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: data), promise: nil)
                }
            }.get()
        } catch {
            return .failed(ProbeConnection.describe(error))
        }
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) { answer.succeed(.timedOut) }
        defer { timer.cancel() }
        let outcome = (try? await answer.valueUnlessCancelled()) ?? .timedOut
        switch outcome {
        case .rejected(let error, _):
            // The Gateway closes right after a rejection (1008, 1002, 1013): wait for its reason.
            let wait = channel.eventLoop.scheduleTask(in: closeWait) { closed.fail(ProbeTimeout()) }
            defer { wait.cancel() }
            let closing = try? await closed.valueUnlessCancelled()
            return .rejected(error.resolved(closing?.resolution), close: closing?.frame)
        case .helloOk:
            var payload = channel.allocator.buffer(capacity: 2)
            payload.write(webSocketErrorCode: .normalClosure)
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload), promise: nil)
            let wait = channel.eventLoop.scheduleTask(in: closeWait) { closed.fail(ProbeTimeout()) }
            defer { wait.cancel() }
            _ = try? await closed.valueUnlessCancelled()
            return outcome
        default:
            return outcome
        }
    }
}

/// How the WebSocket ended after the answer: the close frame, and the pairing decision the
/// Gateway announced before it, if any.
struct Closing: Sendable {
    let frame: CloseFrame
    let resolution: PairingResolution?
}

extension ConnectError {
    /// The refusal as the decision `device.pair.resolved` announced makes it.
    func resolved(_ resolution: PairingResolution?) -> ConnectError {
        guard let resolution, detailCode == .pairingRequired else { return self }
        var resolved = self
        resolved.resolution = resolution
        switch resolution {
        case .rejected: resolved.detailCode = .pairingRejected
        case .expired: resolved.detailCode = .pairingExpired
        case .approved, .superseded, .other: break
        }
        return resolved
    }
}

/// Reads frames after the connect request: the response to it (bounded), pings answered, a
/// pairing decision, and the close frame with its code and reason.
final class ConnectExchangeHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame
    private let requestId: String
    private let answer: EventLoopPromise<ConnectOutcome>
    private let closed: EventLoopPromise<Closing>
    private var text: [UInt8] = []
    private var skipped = 0
    private var answered = false
    /// The pairing request whose decision may follow the refusal, and the decision.
    private var pendingPairing: String?
    private var resolution: PairingResolution?

    init(requestId: String, answer: EventLoopPromise<ConnectOutcome>, closed: EventLoopPromise<Closing>) {
        self.requestId = requestId
        self.answer = answer
        self.closed = closed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let incoming = unwrapInboundIn(data)
        switch incoming.opcode {
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: incoming.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var data = incoming.unmaskedData
            let code = data.readInteger(as: UInt16.self)
            let reason = data.readString(length: min(data.readableBytes, 123)) ?? ""
            let frame = CloseFrame(code: code, reason: reason)
            if !answered { answer.succeed(.closed(frame)) }
            answered = true
            closed.succeed(Closing(frame: frame, resolution: resolution))
            context.close(promise: nil)
        case .text, .binary, .continuation:
            guard !answered || pendingPairing != nil else { return }
            text += incoming.unmaskedData.readableBytesView.prefix(ConnectExchange.answerLimit + 1 - text.count)
            if text.count > ConnectExchange.answerLimit {
                answered = true
                answer.succeed(.unexpected("a frame larger than \(ConnectExchange.answerLimit / 1024) KiB"))
            } else if incoming.fin {
                let frame = String(decoding: text, as: UTF8.self)
                text = []
                if let pending = pendingPairing {
                    resolution = ConnectAnswer.resolution(frame, requestId: pending) ?? resolution
                } else if let outcome = ConnectAnswer.read(frame, requestId: requestId) {
                    answered = true
                    pendingPairing = Self.awaitedDecision(outcome)
                    answer.succeed(outcome)
                } else {
                    skipped += 1
                    if skipped > ConnectExchange.maxSkippedFrames {
                        answered = true
                        answer.succeed(.unexpected("\(skipped) frames and none of them answers connect"))
                    }
                }
            }
        default:
            break
        }
    }

    /// The request id of a pairing refusal the Gateway keeps open for the operator's decision.
    private static func awaitedDecision(_ outcome: ConnectOutcome) -> String? {
        guard case .rejected(let error, _) = outcome, error.pairing?.waitForResolution == true else { return nil }
        return error.requestId
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !answered { answer.succeed(.failed(ProbeConnection.describe(error))) }
        answered = true
        closed.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !answered { answer.succeed(.closed(CloseFrame(code: nil, reason: ""))) }
        answered = true
        closed.fail(ClosedEarly(code: nil))
        context.fireChannelInactive()
    }
}
