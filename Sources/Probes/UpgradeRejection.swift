import DNSSD
import FoundationEssentials

/// An answer other than 101 to the WebSocket upgrade, read as OpenClaw's clients read it: the
/// status, the Location an identity-aware proxy sends the client to, Retry-After, and the body's
/// `{"error":{"type","message"}}` (details.reason "websocket-upgrade-rejected", httpStatus,
/// location, gatewayErrorType, gatewayErrorMessage; the body capped at 2 KiB:
/// packages/gateway-client/src/client.handshake.test.ts). What the Gateway itself answers is in
/// src/gateway/server-http.ts (attachGatewayUpgradeHandler, rejectUpgradeAuth): 403
/// proxy_attribution_required, 429 rate_limited with Retry-After, 401, and 503 in plain text
/// while its admission is closed (src/gateway/server/http-work-admission.ts).
package struct UpgradeRejection: Sendable, Hashable {
    package let status: Int
    /// The Location header, at most `headerLimit` bytes.
    package var location: String?
    package var retryAfter: RetryAfter?
    /// `error.type` and `error.message` of a JSON body (the Gateway's rejectUpgradeAuth).
    package var errorType: String?
    package var errorMessage: String?
    /// The body's first `bodyLimit` bytes, as text.
    package var body: String = ""
    /// The Server and Via headers: what answered, when it was not the Gateway.
    package var server: String?
    package var via: String?

    /// OpenClaw's clients keep 2 KiB of a rejected upgrade's body.
    package static let bodyLimit = 2048
    /// A header value longer than this is cut: a Location or a Server header is a line.
    package static let headerLimit = 512

    package init(status: Int, location: String? = nil, retryAfter: RetryAfter? = nil, body: String = "") {
        self.status = status
        self.location = location
        self.retryAfter = retryAfter
        self.body = body
        (errorType, errorMessage) = Self.gatewayError(body)
    }

    /// `{"error":{"type":...,"message":...}}`, as the Gateway writes its refusals; nils for any other body.
    static func gatewayError(_ body: String) -> (type: String?, message: String?) {
        struct Shape: Decodable {
            struct Inner: Decodable {
                let type: String?
                let message: String?
            }
            let error: Inner?
        }
        guard let shape = try? JSONDecoder().decode(Shape.self, from: Data(body.utf8)) else { return (nil, nil) }
        return (shape.error?.type, shape.error?.message)
    }
}

extension UpgradeRejection {
    /// What the rejection says, typed: the decisions doctor makes on it.
    package enum Kind: Sendable, Hashable {
        /// 403 `proxy_attribution_required`: proxy headers from a source outside
        /// gateway.trustedProxies, or a chain that resolves to loopback (src/gateway/ingress-attribution.ts).
        case proxyAttribution
        /// 301, 302, 303, 307, 308, 401 or 403 with a Location: an identity-aware proxy sends the
        /// client to its login page (docs/gateway/remote.md, "Gateway behind an identity-aware proxy").
        case identityProxy(location: String)
        /// 429: too many failed authentications from this address (gateway.auth.rateLimit).
        case rateLimited
        /// 503 in the Gateway's own words: it is not taking WebSockets for now.
        case unavailable(UnavailableReason)
        /// Anything else (a proxy or another program answered, or a status the Gateway does not use here).
        case other
    }

    /// The Gateway's reasons for a 503 to the upgrade (src/gateway/server-http.ts), read once from
    /// its plain-text body.
    package enum UnavailableReason: String, Sendable, Hashable, CaseIterable {
        /// "Gateway websocket admission closed": restarting, suspending or draining (#141303).
        case admissionClosed
        /// "Too many unauthenticated sockets": this address has too many connections that have not
        /// logged in (the per-address pre-auth budget, #55294).
        case tooManyUnauthenticated
        /// "Gateway websocket handlers unavailable": starting, its handlers not attached yet.
        case handlersUnavailable

        /// The phrase of each in the body (the Gateway may append an install note after it).
        var phrase: String {
            switch self {
            case .admissionClosed: "websocket admission closed"
            case .tooManyUnauthenticated: "too many unauthenticated sockets"
            case .handlersUnavailable: "websocket handlers unavailable"
            }
        }

        /// Transient: the Gateway takes WebSockets again once it is up (a client retries).
        package var isTransient: Bool { self != .tooManyUnauthenticated }
    }

    static let redirects: Set<Int> = [301, 302, 303, 307, 308]
    /// The statuses an identity-aware proxy answers with when it wants a login first.
    package static let loginStatuses = redirects.union([401, 403])
    package static let proxyAttributionType = "proxy_attribution_required"

    package var kind: Kind {
        if status == 403, errorType == Self.proxyAttributionType { return .proxyAttribution }
        if let location, !location.isEmpty, Self.loginStatuses.contains(status) {
            return .identityProxy(location: location)
        }
        if status == 429 { return .rateLimited }
        if status == 503 {
            let lowered = body.lowercased()
            if let reason = UnavailableReason.allCases.first(where: { lowered.contains($0.phrase) }) { return .unavailable(reason) }
        }
        return .other
    }

    /// The host a Location sends the client to (`https://team.cloudflareaccess.com/...`), lower-cased.
    package static func host(of location: String) -> String? {
        guard let schemeEnd = location.firstRange(of: "://") else { return nil }
        let rest = location[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@").last.map(String.init) ?? ""
        let host: Substring =
            hostPort.hasPrefix("[") ? hostPort.prefix { $0 != "]" }.dropFirst() : hostPort.prefix { $0 != ":" }
        return host.isEmpty ? nil : host.lowercased()
    }

    /// A Location on `*.cloudflareaccess.com`: Cloudflare Access, which `gateway.remote.edgeAuth` passes.
    package static func isCloudflareAccess(_ location: String) -> Bool {
        host(of: location).map { $0 == "cloudflareaccess.com" || $0.hasSuffix(".cloudflareaccess.com") } ?? false
    }
}

/// Retry-After (RFC 9110 §10.2.3): seconds to wait, or an HTTP-date.
package enum RetryAfter: Sendable, Hashable {
    case seconds(Int)
    case date(Date)

    /// The longest wait read from a header: a day (a Gateway asks for seconds to minutes).
    static let longest = 86_400

    /// A header value; nil when it is neither form.
    package init?(header: String) {
        let value = header.trimmingSpaces()
        if !value.isEmpty, value.allSatisfy(\.isASCIIDigit) {
            self = .seconds(Int(value.prefix(6)).map { min($0, Self.longest) } ?? Self.longest)
        } else if let date = Self.imfFixdate(value) {
            self = .date(date)
        } else {
            return nil
        }
    }

    /// The wait from `now`, never negative.
    package func wait(from now: Date) -> Duration {
        switch self {
        case .seconds(let seconds): .seconds(seconds)
        case .date(let date): .seconds(max(0, min(date.timeIntervalSince(now), Double(Self.longest))).rounded(.up))
        }
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, the form RFC 9110 §5.6.7 says senders use.
    static func imfFixdate(_ text: String) -> Date? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT", let day = Int(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (0..<24).contains(time[0]), (0..<60).contains(time[1]),
            (0...60).contains(time[2])
        else { return nil }
        let days = UTCDay(year: year, month: month + 1, day: day).daysSinceEpoch
        return Date(timeIntervalSince1970: Double(days * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]))
    }
}

extension UTCDay {
    /// Days since 1970-01-01 (days-from-civil, the inverse of `init(unixSeconds:)`).
    var daysSinceEpoch: Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
