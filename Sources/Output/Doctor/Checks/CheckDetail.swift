import Avahi
import DNSSD
import Doctor
import Host
import Probes

/// A check's `detail` in doctor's JSON: the facts a script reads, as strings, written from the
/// check's evidence (the schema's map; nothing in clawnet reads it back).
enum CheckDetail {
    static func of(_ check: Check) -> [String: String] {
        switch check.evidence {
        case .none, .nss, .browse: return [:]
        case .config(let evidence): return config(check.reason, evidence)
        case .advertising(let evidence): return check.status == .skip ? [:] : advertising(evidence)
        case .bus(let address, _): return ["address": address]
        case .daemon(.running(let version, let host)): return ["version": version, "host": host]
        case .daemon: return [:]
        case .interfaces(let evidence):
            return evidence.usable.isEmpty ? [:] : ["interfaces": evidence.usable.map(\.name).joined(separator: ",")]
        case .port5353(let evidence): return evidence.others.isEmpty ? [:] : ["holders": CheckText.holders(evidence.others)]
        case .resolver(let evidence):
            return check.reason == .ok ? ["servers": evidence.conf.servers.map(\.description).joined(separator: ", ")] : [:]
        case .wideArea(let evidence): return ["domain": evidence.domain.name]
        case .tailnet(let evidence):
            return evidence.addresses.isEmpty ? [:] : ["addresses": evidence.addresses.map(\.description).joined(separator: ",")]
        case .dns(let evidence): return dns(check.reason, evidence)
        case .tcp(let evidence):
            return Dictionary(evidence.attempts.map { ($0.address.description, $0.outcome.word) }, uniquingKeysWith: { first, _ in first })
        case .tls(let evidence): return tls(evidence)
        case .pin(let evidence): return pin(check.reason, evidence)
        case .certificate(let facts): return certificate(facts)
        case .http(let evidence): return http(check.reason, evidence)
        case .webSocket(let evidence): return check.id == .gwWebSocket ? webSocket(check.reason, evidence) : [:]
        case .connect(let evidence, _): return connect(evidence)
        case .identity(let evidence): return identity(evidence)
        case .phones(let evidence): return phones(evidence)
        case .gateways(let evidence):
            return ["gateways": String(evidence.gateways.count), "beacons": String(evidence.gateways.map(\.beacons.count).reduce(0, +))]
        }
    }

    static func config(_ reason: CheckReason, _ evidence: ConfigEvidence) -> [String: String] {
        let config = evidence.config
        if evidence.asNode {
            var detail = ["path": config.path, "mode": "remote"]
            detail["url"] = config.node.remoteURL?.text
            return detail
        }
        switch reason {
        case .configUnreadable, .configMissing, .configInvalid: return ["path": config.path]
        default: return ["path": config.path, "bind": (config.bind ?? .loopback).word]
        }
    }

    static func advertising(_ evidence: AdvertisingEvidence) -> [String: String] {
        var detail = ["discovery.mdns.mode": (evidence.settings.mdnsMode ?? .minimal).word]
        detail["OPENCLAW_DISABLE_BONJOUR"] = evidence.settings.disableBonjour
        detail["container"] = evidence.container
        return detail
    }

    static func dns(_ reason: CheckReason, _ evidence: DNSEvidence) -> [String: String] {
        switch reason {
        case .ok: ["addresses": evidence.addresses.map(\.description).joined(separator: ", ")]
        case .magicDNSNotApplied: ["magicDNS": CheckText.magicDNS(evidence).joined(separator: ",")]
        default: [:]
        }
    }

    static func tls(_ evidence: TLSEvidence) -> [String: String] {
        guard let facts = evidence.facts else { return [:] }
        return ["version": facts.version.description, "cipher": facts.cipher ?? "unknown", "sha256": facts.fingerprint.hex]
    }

    static func pin(_ reason: CheckReason, _ evidence: PinEvidence) -> [String: String] {
        var detail = ["observed": evidence.observed.hex]
        if reason == .pinMismatch { detail["expected"] = evidence.pin?.fingerprint.hex }
        if reason == .advertisedMismatch { detail["advertised"] = evidence.advertised?.hex }
        return detail
    }

    static func certificate(_ facts: TLSFacts) -> [String: String] {
        guard let certificate = facts.certificate else { return [:] }
        return [
            "subject": certificate.subject, "issuer": certificate.issuer, "notBefore": CheckText.iso(certificate.notBefore),
            "notAfter": CheckText.iso(certificate.notAfter), "selfSigned": String(certificate.selfSigned),
            "subjectAlternativeNames": certificate.subjectAlternativeNames.joined(separator: ","),
        ]
    }

    /// The Server and Via headers of an answer: what answers instead of the Gateway, or in front of it.
    static func http(_ reason: CheckReason, _ evidence: HTTPEvidence) -> [String: String] {
        guard case .response(_, _, let server, let via) = evidence.health.outcome else { return [:] }
        var detail: [String: String] = [:]
        detail["server"] = server
        detail["via"] = via
        return detail
    }

    /// A TLS server asked in plain text; a WebSocket held idle behind a proxy, and how long.
    static func webSocket(_ reason: CheckReason, _ evidence: WebSocketEvidence) -> [String: String] {
        var detail = upgradeRejection(evidence)
        if reason == .wantsTLS { detail["wantsTLS"] = "true" }
        switch evidence.idle?.outcome {
        case .closed(let after)?: detail["idleClosedAfterMs"] = String(after.milliseconds)
        case .heldOpen(let held)?: detail["idleHeldMs"] = String(held.milliseconds)
        case .notWatched?, nil: break
        }
        return detail
    }

    /// The file that decides, and the device it gives.
    static func identity(_ evidence: IdentityEvidence) -> [String: String] {
        guard evidence.isNode, let primary = evidence.primary else { return [:] }
        var detail = ["path": primary.path, "devices": String(evidence.distinctDevices)]
        detail["deviceId"] = primary.state.deviceId
        detail["owner"] = primary.ownerName ?? primary.owner.map(String.init)
        detail["mode"] = primary.mode.map { "0" + String($0, radix: 8) }
        if evidence.files.count > 1 { detail["files"] = evidence.files.map(\.path).joined(separator: ",") }
        return detail
    }

    static func connect(_ evidence: ConnectEvidence) -> [String: String] {
        var detail: [String: String] = [:]
        switch evidence.phase.outcome {
        case .helloOk(let hello):
            detail["protocol"] = hello.protocolVersion.map(String.init) ?? ""
            detail["serverVersion"] = hello.serverVersion
            detail["tickIntervalMs"] = hello.tickIntervalMs.map(String.init)
        case .rejected(let error, _):
            detail["code"] = error.code.word
            detail["detailCode"] = error.detailCode?.word
            detail["requestId"] = error.requestId
            detail["recommendedNextStep"] = error.recommendedNextStep?.word
            detail["authReason"] = error.authReason
            detail["expectedProtocol"] = error.expectedProtocol.map(String.init)
            detail["reason"] = error.reason
            detail["deviceId"] = error.pairing?.deviceId
            detail["retryAfterMs"] = error.retryAfterMs.map(String.init)
            detail["minimumProbeProtocol"] = error.minimumProbeProtocol.map(String.init)
            detail["gatewayBuildId"] = error.gatewayBuildId
            detail["pairingDecision"] = error.resolution?.word
        case .closed(let close): detail["closeCode"] = close.code.map(String.init)
        case .unexpected, .timedOut, .failed: break
        }
        detail["offeredProtocol"] = "\(evidence.offeredRange.min)-\(evidence.offeredRange.max)"
        if evidence.tries.count > 1 { detail["tries"] = String(evidence.tries.count) }
        switch evidence.decision {
        case .send?: detail["credentials"] = "sent"
        case .withhold(let withheld)?:
            detail["credentials"] = "withheld"
            detail["credentialsReason"] = withheld.verdict.reason.rawValue
            if case .unverifiedCertificate(let observed, _) = withheld { detail["observed"] = observed.hex }
        case nil: break
        }
        return detail
    }
}

extension CheckDetail {
    /// How many discovered beacons a phone would refuse.
    static func phones(_ evidence: PhonesEvidence) -> [String: String] {
        ["beacons": String(evidence.beacons.count), "refused": String(evidence.beacons.filter(\.refused).count)]
    }
}
