import DNSSD
import Doctor

/// The words of discovery.phones: per beacon, what OpenClaw's Android and iOS nodes would do
/// on a first connect (PhonesEvidence names the apps' files it follows).
extension CheckText {
    static func phones(_ reason: CheckReason, _ evidence: PhonesEvidence) -> CheckText {
        let listed = evidence.beacons.prefix(maxListed).map { "\($0.name): Android \(verdict($0.android)), iOS \(verdict($0.ios))" }
        switch reason {
        case .noGatewaysSeen: return CheckText("no Gateway was discovered: nothing a phone would connect to")
        case .phoneRefuses:
            let refused = evidence.beacons.filter(\.refused).prefix(maxListed).map {
                "\($0.name): Android \(verdict($0.android)), iOS \(verdict($0.ios))"
            }
            return CheckText(
                refused.joined(separator: "; "),
                fix: "turn on TLS on the Gateway (gateway.tls.enabled: true; it then advertises gatewayTls=1 and its fingerprint), "
                    + "and confirm the fingerprint on the phone at its first connect")
        default: return CheckText(listed.joined(separator: "; "))
        }
    }

    static func verdict(_ verdict: PhoneVerdict) -> String {
        switch verdict {
        case .platformTrust(let host):
            "wss:// to \(words(host)), accepted when a public CA issued its certificate, else after the user trusts its fingerprint"
        case .tlsAfterTrust: "wss:// after the user trusts the fingerprint it shows"
        case .plainText(let host): "ws:// in clear text to \(words(host))"
        case .refused(.iosNeedsTLS): "refuses (\"Discovered gateway is missing TLS and no trusted fingerprint is stored.\")"
        case .refused(.androidCleartextHost(let host)):
            "refuses ws:// to \(words(host)) (clear text only to loopback, .local and private LAN addresses)"
        }
    }
}
