import Foundation
import TestSupport
import Testing

/// Issue 31 "doctor knows the Gateway" and issue 32 case 6 on the lab LAN: the advertised TLS
/// stand-in on lgw (mDNS, and BIND serving its zone), doctor on lnode.
extension DoctorLabTests {
    func diagnosis(_ document: [String: Any], _ id: String) -> [String: Any]? {
        (document["diagnosis"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }
    }

    @Test("`doctor lgw.local` and `doctor ADDRESS` (no scheme, no port) for the advertised TLS stand-in: probed as wss:// on its port")
    func hostTakesBeaconScheme() async throws {
        try await withLab { lab in
            for typed in ["lgw.local", lab.bed.ip(.lgw)] {
                let (exit, document) = try await lab.doctor([typed])
                let gateway = try #require(gateways(document).first, "\(typed): \(document)")
                let checks = gateway["checks"] as? [[String: Any]] ?? []
                #expect(status(checks, "gw.tls") == "pass" && status(checks, "gw.protocol") == "pass", "\(typed): \(notPassing(document))")
                #expect(gateway["beacon"] != nil, "\(typed): the beacon's name and TXT come along")
                #expect(
                    !diagnosisIDs(document).contains("tls-not-advertised") && failures(document).isEmpty,
                    "\(typed): \(notPassing(document))")
                #expect(exit == 0, "\(typed): \(notPassing(document))")
            }
        }
    }

    @Test(
        "a renewed certificate, the zone keeping the old fingerprint: one Gateway, the stale record and its server named, a replace snippet"
    )
    func staleZoneFingerprint() async throws {
        let old = String(repeating: "ab", count: 32)
        try await withLab(zoneFingerprint: old) { lab in
            let (status, document) = try await lab.doctor()
            let ids = diagnosisIDs(document)
            #expect(!ids.contains("multiple-gateways") && !ids.contains("pin-changed"), "\(ids)")
            let stale = try #require(diagnosis(document, "stale-fingerprint-record"), "\(ids): \(notPassing(document))")
            let cause = stale["cause"] as? String ?? ""
            let server = lab.dns.label
            #expect(cause.contains("openclaw.internal.") && cause.contains(server) && cause.contains("one Gateway"), "\(cause)")
            #expect((stale["fix"] as? String)?.contains("restart the Gateway") == false, "\(stale)")
            let snippets = document["snippets"] as? [[String: Any]] ?? []
            let snippet = try #require(snippets.first, "a snippet: \(document)")
            #expect(snippet["reason"] as? String == "stale" && snippet["corefile"] == nil, "BIND serves the zone: \(snippet)")
            let update = snippet["update"] as? String ?? ""
            #expect(
                update.contains("IN TXT") && update.contains("gatewayTlsSha256=\(lab.fingerprint)") && !update.contains("IN SRV"),
                "\(update)")
            #expect(status == 0, "a warning: \(notPassing(document))")
        }
    }

    @Test("a node pinned to the certificate before a renewal its Gateway's beacon advertises: certificate-renewed, re-pin, no token sent")
    func nodePinBeforeRenewal() async throws {
        try await withLab { lab in
            let token = "renewal-token-\(uniqueTag())-planted"
            let old = String(repeating: "cd", count: 32)
            let config = try writeConfig(
                """
                { gateway: { mode: 'remote', remote: { url: 'wss://lgw.local:\(lab.port)', tlsFingerprint: '\(old)', token: '\(token)' } } }
                """)
            let gateway = try #require(lab.gateway)
            let seen = gateway.lines.count
            let result = try await lab.bed.clawnet(
                ["doctor", "--format", "json", "--timeout", "4s", "--config", config], on: .lnode, timeout: .seconds(40))
            let document = try jsonObject(result.stdout)
            let renewed = try #require(diagnosis(document, "certificate-renewed"), "\(diagnosisIDs(document))")
            #expect(!diagnosisIDs(document).contains("pin-changed"), "\(diagnosisIDs(document))")
            #expect((renewed["fix"] as? String)?.contains("gateway.remote.tlsFingerprint sha256:\(lab.fingerprint)") == true, "\(renewed)")
            let line = try await connectLine(gateway, from: seen)
            #expect(line.hasSuffix("no token, no device"), "the stand-in received: \(line)")
            #expect(!(result.stdout + result.stderr).contains(token) && result.status == 1)
        }
    }

    @Test(
        "the stand-in stopped while its zone still lists it: 'start it' (openclaw gateway start), never gateway.bind or Bonjour switches"
    )
    func stoppedGateway() async throws {
        try await withLab { lab in
            _ = try await lab.gateway?.stop()
            let (status, document) = try await lab.doctor()
            let stopped = try #require(diagnosis(document, "gateway-not-listening"), "\(diagnosisIDs(document)): \(notPassing(document))")
            let fix = stopped["fix"] as? String ?? ""
            #expect(fix.contains("openclaw gateway start") && !fix.contains("gateway.bind to"), "\(fix)")
            for other in (document["diagnosis"] as? [[String: Any]] ?? []) {
                let words = (other["fix"] as? String ?? "") + (other["cause"] as? String ?? "")
                #expect(!words.contains("OPENCLAW_DISABLE_BONJOUR"), "\(other)")
            }
            #expect(status == 1)
        }
    }

    @Test("on the Gateway host, the zone naming lgw's address: the stand-in on 127.0.0.1 only binds loopback; stopped, it is not running")
    func loopbackOnTheGatewayHost() async throws {
        try await withLab(["--bind", "127.0.0.1"]) { lab in
            let config = try writeConfig("{ gateway: { port: \(lab.port) } }")
            let result = try await lab.bed.clawnet(
                ["doctor", "--format", "json", "--timeout", "4s", "--config", config] + lab.dnsArguments, on: .lgw, timeout: .seconds(40))
            let document = try jsonObject(result.stdout)
            let cause = try #require(diagnosis(document, "gateway-not-listening"), "\(diagnosisIDs(document)): \(notPassing(document))")
            let words = (cause["cause"] as? String ?? "") + " / " + (cause["fix"] as? String ?? "")
            #expect(words.contains("answers on 127.0.0.1:\(lab.port) only") && words.contains("gateway.bind"), "\(words)")
            #expect(!words.contains("or is not running") && !words.contains("gateway start"), "\(words)")

            // Stopped: 127.0.0.1 refuses too: not running here, start it.
            _ = try await lab.gateway?.stop()
            let again = try await lab.bed.clawnet(
                ["doctor", "--format", "json", "--timeout", "4s", "--config", config] + lab.dnsArguments, on: .lgw, timeout: .seconds(40))
            let stopped = try jsonObject(again.stdout)
            let down = try #require(diagnosis(stopped, "gateway-not-listening"), "\(diagnosisIDs(stopped)): \(notPassing(stopped))")
            let said = (down["cause"] as? String ?? "") + " / " + (down["fix"] as? String ?? "")
            #expect(said.contains("not running (nothing listens on 127.0.0.1:\(lab.port) either)"), "\(said)")
            #expect(said.contains("start it here: `openclaw gateway start`") && !said.contains("gateway.bind to"), "\(said)")
        }
    }
}
