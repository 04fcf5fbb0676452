import DNSSD
import FoundationEssentials
import Probes

/// The checks of one Gateway, judged layer by layer from its evidence: gw.dns, gw.tcp, gw.tls,
/// gw.pin, gw.cert, gw.http, gw.websocket, gw.protocol, gw.connect. A layer whose need gave
/// nothing is skipped as the table says; each judge gives a status and a reason, never words.
package enum GatewayChecks {
    package static func run(_ evidence: GatewayEvidence) -> [Check] {
        Layer.checks(Layer.gateway, delivered: evidence.delivered) { layer in [judge(layer.id, evidence)] }
    }

    static func judge(_ id: CheckID, _ evidence: GatewayEvidence) -> Check {
        switch id {
        case .gwDNS: dns(evidence.dns)
        case .gwTCP: tcp(evidence.tcp)
        case .gwTLS: tls(evidence.tls)
        case .gwPin: pin(evidence.pin)
        case .gwCert: certificate(evidence.tls.facts, now: evidence.now)
        case .gwHTTP: http(evidence.http)
        case .gwWebSocket: webSocket(evidence.webSocket)
        case .gwProtocol: firstFrame(evidence.webSocket)
        default: connect(evidence.connect)
        }
    }

    static func dns(_ dns: DNSEvidence) -> Check {
        if case .onlyAvahi? = dns.problem?.kind, !dns.addresses.isEmpty {
            return Check(.gwDNS, .warn, .localNameOnlyByAvahi, evidence: .dns(dns))
        }
        guard dns.addresses.isEmpty else { return Check(.gwDNS, .pass, .ok, evidence: .dns(dns)) }
        return Check(.gwDNS, .fail, dns.unknownTarget ? .unknownTarget : failure(of: dns.problem), evidence: .dns(dns))
    }

    /// What a name that gave no address failed with.
    static func failure(of problem: DNSProblem?) -> CheckReason {
        switch problem?.kind {
        case .notFound?: .nameNotFound
        case .localWithoutNSS?: .localNameWithoutNSS
        case .magicDNSOnly?: .magicDNSNotApplied
        case .noMDNSAnswer?: .localNameUnanswered
        case .noAnswer?, .other?, .onlyAvahi?, nil: .noAddress
        }
    }

    static func tcp(_ tcp: TCPEvidence) -> Check {
        if let good = tcp.connected {
            // An advertised address this machine has no route to: a node that tries it first waits.
            let (status, reason): (Check.Status, CheckReason) = tcp.unroutable.isEmpty ? (.pass, .ok) : (.warn, .partlyUnreachable)
            return Check(.gwTCP, status, reason, elapsed: good.elapsed, evidence: .tcp(tcp))
        }
        let reason: CheckReason
        if tcp.attempts.contains(where: \.isLocalShortage) {
            // An address this machine could not even try: nothing is known of the Gateway.
            reason = .localShortage
        } else if tcp.attempts.allSatisfy({ $0.outcome == .refused }) {
            reason = tcp.addresses.allSatisfy(\.isLoopback) ? .nothingListensLocally : .refused
        } else if tcp.attempts.contains(where: { $0.outcome == .reset }) {
            reason = .connectionReset
        } else {
            reason = tcp.attempts.contains { $0.outcome == .timedOut } ? .timedOut : .unreachable
        }
        return Check(.gwTCP, .fail, reason, elapsed: tcp.attempts.map(\.elapsed).max() ?? .zero, evidence: .tcp(tcp))
    }

    static func tls(_ tls: TLSEvidence) -> Check {
        guard tls.asked, let phase = tls.phase else { return Check(.gwTLS, .skip, .plainGateway) }
        let reason: CheckReason
        switch phase.outcome {
        case .established(let facts): reason = facts.version == .tls13 ? .ok : .tlsVersion
        case .notTLS: reason = .notTLS
        case .alert: reason = .tlsAlert
        case .handshakeFailed: reason = .handshakeFailed
        case .timedOut: reason = .handshakeTimedOut
        }
        return Check(.gwTLS, reason == .ok ? .pass : .fail, reason, elapsed: phase.elapsed, evidence: .tls(tls))
    }

    /// OpenClaw's rule: the user's pin decides; a TXT fingerprint is a hint and never
    /// overrides it. Without a pin, a beacon whose fingerprint differs is a failure unless
    /// another beacon of the Gateway advertises the certificate served (then a stale record).
    static func pin(_ pin: PinEvidence?) -> Check {
        guard let pin else { return Check(.gwPin, .skip, .noCertificate) }
        let (status, reason): (Check.Status, CheckReason)
        if let expected = pin.pin?.fingerprint {
            if expected != pin.observed {
                (status, reason) = (.fail, .pinMismatch)
            } else if case .issued? = pin.certificate {
                // The CA renews it (Let's Encrypt every 60-90 days): the pin breaks each time.
                (status, reason) = (.warn, .pinOnIssuedCertificate)
            } else if pin.advertised.map({ $0 != pin.observed }) ?? false || !pin.staleRecords.isEmpty {
                (status, reason) = (.warn, .advertisedStale)
            } else {
                (status, reason) = (.pass, .ok)
            }
        } else if let advertised = pin.advertised, advertised != pin.observed, !pin.renewalAdvertised {
            (status, reason) = (.fail, .advertisedMismatch)
        } else if !pin.staleRecords.isEmpty {
            // Another beacon of this Gateway advertises the certificate served: a renewal one
            // record missed, not an interception.
            (status, reason) = (.warn, .recordStale)
        } else {
            (status, reason) = (.pass, .ok)
        }
        return Check(.gwPin, status, reason, evidence: .pin(pin))
    }

    /// A certificate expiring within this many days is a warning.
    static let expiryWarningDays = 14.0

    static func certificate(_ facts: TLSFacts?, now: Date) -> Check {
        guard let facts else { return Check(.gwCert, .skip, .noCertificate) }
        let (status, reason): (Check.Status, CheckReason)
        if let certificate = facts.certificate {
            if certificate.notAfter < now {
                (status, reason) = (.fail, .certificateExpired)
            } else if certificate.notBefore > now {
                (status, reason) = (.fail, .certificateNotYetValid)
            } else if certificate.notAfter.timeIntervalSince(now) < expiryWarningDays * 86_400 {
                (status, reason) = (.warn, .certificateExpiresSoon)
            } else {
                (status, reason) = (.pass, .ok)
            }
        } else {
            (status, reason) = (.warn, .certificateUnreadable)
        }
        return Check(.gwCert, status, reason, evidence: .certificate(facts))
    }
}
