import DNSSD
import FoundationEssentials
import NIOCore
import NIOHTTP1
import Synchronization

/// What a 2026.9 Gateway answers to a WebSocket upgrade before it opens one, as the stand-in
/// imitates it (src/gateway/server-http.ts attachGatewayUpgradeHandler): 403
/// `proxy_attribution_required` for proxy headers it cannot attribute
/// (src/gateway/ingress-attribution.ts resolveGatewayIngressAttribution, with net.ts's
/// resolveClientIp walk of X-Forwarded-For), 503 while its admission is closed
/// (src/gateway/server/http-work-admission.ts), and 429 with Retry-After while this address is
/// locked out (rejectUpgradeAuth). /healthz and /readyz are not gated, as on the Gateway.
package struct StandInUpgradeGate: Sendable {
    /// gateway.trustedProxies (addresses or CIDR ranges); nil leaves attribution out (the stand-in
    /// before OpenClaw 2), empty refuses every proxy.
    package var trustedProxies: [IPNetwork]?
    /// gateway.allowRealIpFallback: X-Real-IP names the client when X-Forwarded-For does not.
    package var allowRealIpFallback = false
    /// Answer 503 "Gateway websocket admission closed" for this long from the first upgrade (a restart).
    package var restartingFor: Duration?
    /// Answer 429 with Retry-After for this long from the first upgrade (gateway.auth.rateLimit's lockout).
    package var rateLimitedFor: Duration?

    package init(
        trustedProxies: [IPNetwork]? = nil, allowRealIpFallback: Bool = false, restartingFor: Duration? = nil,
        rateLimitedFor: Duration? = nil
    ) {
        self.trustedProxies = trustedProxies
        self.allowRealIpFallback = allowRealIpFallback
        self.restartingFor = restartingFor
        self.rateLimitedFor = rateLimitedFor
    }

    /// A refusal: the status line's code and phrase, headers and body, as the Gateway writes them.
    package struct Refusal: Sendable, Equatable {
        package let status: HTTPResponseStatus
        /// Retry-After, in seconds (429).
        package var retryAfter: Int?
        package let contentType: String
        package let body: String

        /// The status code (403, 429, 503).
        package var code: Int { Int(status.code) }
    }

    /// PROXY_ATTRIBUTION_GUIDANCE.
    static let attributionGuidance =
        "Configure gateway.trustedProxies narrowly and make the proxy overwrite or safely rebuild forwarded client headers."

    /// The refusal of an upgrade from `remote` with `headers`, `elapsed` after the first upgrade; nil admits it.
    package func refusal(remote: String, headers: HTTPHeaders, elapsed: Duration) -> Refusal? {
        if let restartingFor, elapsed < restartingFor {
            return Refusal(
                status: .serviceUnavailable, contentType: "text/plain; charset=utf-8", body: "Gateway websocket admission closed")
        }
        if trustedProxies != nil, !attributes(remote: remote, headers: headers) {
            let message = "Proxy client attribution is required. " + Self.attributionGuidance
            let body = #"{"error":{"message":"\#(message)","type":"proxy_attribution_required"}}"#
            return Refusal(status: .forbidden, contentType: "application/json; charset=utf-8", body: body)
        }
        if let rateLimitedFor, elapsed < rateLimitedFor {
            let seconds = Int((rateLimitedFor - elapsed).secondsRoundedUp)
            let body = #"{"error":{"message":"Too many failed authentication attempts. Please try again later.","type":"rate_limited"}}"#
            return Refusal(
                status: .tooManyRequests, retryAfter: max(seconds, 1), contentType: "application/json; charset=utf-8", body: body)
        }
        return nil
    }

    /// Whether the Gateway can name the client of this request: a direct one, or one a trusted
    /// proxy forwards that is not itself loopback.
    func attributes(remote: String, headers: HTTPHeaders) -> Bool {
        guard let source = Self.address(remote) else { return false }
        let proxied = headers.contains { Self.isProxyHeader($0.name) }
        let tailscale = headers.contains { Self.tailscaleHeaders.contains($0.name.lowercased()) }
        if isTrusted(source) {
            guard let client = forwardedClient(headers) else { return false }
            return !client.isLoopback
        }
        return !proxied && !tailscale
    }

    /// net.ts resolveForwardedClientIp: X-Forwarded-For from the right, the first hop that is not
    /// a trusted proxy; else X-Real-IP when allowed. nil: no client can be named.
    func forwardedClient(_ headers: HTTPHeaders) -> IPAddress? {
        let hops = headers[canonicalForm: "X-Forwarded-For"].map(String.init)
        for hop in hops.reversed() {
            guard let address = Self.address(hop) else { return nil }
            if !isTrusted(address) { return address }
        }
        guard allowRealIpFallback, let realIP = headers.first(name: "X-Real-IP") else { return nil }
        return Self.address(realIP)
    }

    func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies?.contains { $0.contains(address) } ?? false
    }

    /// hasForwardedRequestHeaders: Forwarded, X-Real-IP and every X-Forwarded-*.
    static func isProxyHeader(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered == "forwarded" || lowered == "x-real-ip" || lowered.hasPrefix("x-forwarded-")
    }

    /// Headers only Tailscale Serve or Funnel sets (hasTailscaleOwnedHeaders).
    static let tailscaleHeaders: Set<String> = [
        "tailscale-funnel-request", "tailscale-headers-info", "tailscale-user-login", "tailscale-user-name", "tailscale-user-profile-pic",
    ]

    /// An address as a socket or a header gives it: `::ffff:127.0.0.1` as IPv4, brackets off.
    static func address(_ text: String) -> IPAddress? {
        var trimmed = text.trimmingSpaces()
        if trimmed.hasPrefix("["), let end = trimmed.firstIndex(of: "]") {
            trimmed = String(trimmed[trimmed.index(after: trimmed.startIndex)..<end])
        }
        guard let address = IPAddress(trimmed) else { return nil }
        return address.mappedIPv4 ?? address
    }
}

extension Duration {
    /// Whole seconds, a part of one counting as one (as Math.ceil(retryAfterMs / 1000)).
    fileprivate var secondsRoundedUp: Int64 {
        let (seconds, attoseconds) = components
        return attoseconds > 0 ? seconds + 1 : seconds
    }
}

/// The gate as one stand-in runs it: the first upgrade starts its clock, and each refusal is told
/// to the observer (the command prints it). Locked: connections run on several event loops.
final class StandInUpgradeGateKeeper: Sendable {
    let gate: StandInUpgradeGate
    let observer: (@Sendable (String, StandInUpgradeGate.Refusal) -> Void)?
    private let firstUpgrade = Mutex<ContinuousClock.Instant?>(nil)

    init(gate: StandInUpgradeGate, observer: (@Sendable (String, StandInUpgradeGate.Refusal) -> Void)?) {
        self.gate = gate
        self.observer = observer
    }

    func refusal(remote: String, headers: HTTPHeaders) -> StandInUpgradeGate.Refusal? {
        let now = ContinuousClock.now
        let first = firstUpgrade.withLock { first in
            if first == nil { first = now }
            return first ?? now
        }
        let refusal = gate.refusal(remote: remote, headers: headers, elapsed: now - first)
        if let refusal { observer?(remote, refusal) }
        return refusal
    }
}

/// Answers the upgrade requests the gate refused, which the upgrader then passes on as plain
/// requests: the refusal as the Gateway writes it, and the connection closes. Other requests
/// go on to the health endpoints.
final class UpgradeRefusals: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    static let name = "upgrade-refusals"
    /// What the upgrader's shouldUpgrade decided for the request now arriving (nil: not refused).
    let verdict: NIOLoopBoundBox<StandInUpgradeGate.Refusal?>
    private var refusing: StandInUpgradeGate.Refusal?

    init(verdict: NIOLoopBoundBox<StandInUpgradeGate.Refusal?>) {
        self.verdict = verdict
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .head = part {
            refusing = verdict.value
            verdict.value = nil
        }
        guard let refusal = refusing else { return context.fireChannelRead(data) }
        guard case .end = part else { return }
        var headers = HTTPHeaders()
        if let seconds = refusal.retryAfter { headers.add(name: "Retry-After", value: String(seconds)) }
        headers.add(name: "Content-Type", value: refusal.contentType)
        headers.add(name: "Content-Length", value: String(refusal.body.utf8.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: refusal.status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: refusal.body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
