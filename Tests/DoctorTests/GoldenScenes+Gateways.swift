import DNSSD
import Foundation
import Host

@testable import Doctor
@testable import Probes

/// Scenes in which each Gateway layer goes wrong in each way doctor tells apart.
extension GoldenScene {
    static let lanBeacon = Recorded.beacon(txt: [("role", "gateway"), ("gatewayTls", "1"), ("displayName", "Studio")])

    static let healthy = GoldenScene("healthy") { scene in
        scene.system = Golden.gatewayHost
        scene.discovery = Recorded.discovery(beacons: [lanBeacon])
        let target = Golden.target(advertised: Recorded.certificateSHA)
        scene.gateways = [Gateway(Golden.report(target), beacon: lanBeacon)]
    }

    /// Healthy but for the certificate: not the one its beacon advertises (gatewayTlsSha256).
    static let advertisedOther = GoldenScene("advertised-other") { scene in
        scene.system = Golden.gatewayHost
        scene.discovery = Recorded.discovery(beacons: [lanBeacon])
        scene.gateways = [Gateway(Golden.report(Golden.target(advertised: Recorded.otherSHA)), beacon: lanBeacon)]
    }

    /// A stranger's beacon whose name and TXT hold bidi overrides and isolates (Trojan Source):
    /// shown escaped, never reordered.
    static let trojanNames = GoldenScene("trojan-names") { scene in
        scene.system = Golden.gatewayHost
        let stranger = Recorded.beacon(
            "Studio\u{202E})walCnepO(\u{202C} \u{200B}", address: "192.168.1.66",
            txt: [("role", "gateway"), ("gatewayTls", "1"), ("displayName", "Studio\u{2066}\u{2028}x\u{2069}")])
        scene.discovery = Recorded.discovery(beacons: [lanBeacon, stranger])
        scene.gateways = [Gateway(Golden.report(Golden.target(advertised: Recorded.certificateSHA)), beacon: lanBeacon)]
    }

    static let names = GoldenScene("names") { scene in
        scene.explicitTargets = true
        func named(_ host: String, _ problem: DNSProblem?) -> Gateway {
            Gateway(ProbeReport(target: Golden.target("wss://\(host):18789", host: host, addresses: [])), dnsProblem: problem)
        }
        scene.gateways = [
            named("gone.example", DNSProblem("cannot resolve gone.example: Name or service not known", kind: .notFound)),
            named("slow.example", DNSProblem("cannot resolve slow.example: Temporary failure in name resolution", kind: .noAnswer)),
            named("odd.example", DNSProblem("cannot resolve odd.example: System error", kind: .other)),
            named("box.local", DNSProblem("cannot resolve box.local: Name or service not known", kind: .localWithoutNSS)),
            named(
                "studio.tail1234.ts.net",
                DNSProblem(
                    "cannot resolve studio.tail1234.ts.net: Name or service not known",
                    kind: .magicDNSOnly([IPAddress("100.101.102.7")!, IPAddress("fd7a:115c:a1e0::7")!]))),
            named("box.local", nil),
            // `.local` names nsswitch did not resolve, asked of avahi-daemon: no host answered; one did.
            named("nobody.local", DNSProblem("cannot resolve nobody.local: Name or service not known", kind: .noMDNSAnswer)),
            Gateway(
                Golden.report(Golden.target("wss://lamp.local:18789", host: "lamp.local", addresses: ["192.168.1.40"])),
                dnsProblem: DNSProblem("cannot resolve lamp.local: Temporary failure in name resolution", kind: .onlyAvahi(nssMdns: true))),
            Gateway(Golden.report(Golden.target("wss://10.0.0.9:18789", host: "10.0.0.9", addresses: ["10.0.0.9"]))),
            // Doctor reports the names that match nothing after the Gateways it probed.
            .unknown("Kitchen Gateway"),
        ]
    }

    static let tcp = GoldenScene("tcp") { scene in
        scene.system = DiagnosisRuleTests.withRoutes
        scene.discovery = Recorded.discovery(beacons: [Recorded.beacon()])
        let here = Golden.target("127.0.0.1:18789", host: "127.0.0.1", addresses: ["127.0.0.1"], tls: false)
        scene.gateways = [
            Gateway(Golden.tcp(Golden.target(), [.refused]), beacon: Recorded.beacon()),
            Gateway(Golden.tcp(Golden.target(), [.refused])),
            Gateway(Golden.tcp(here, [.refused])),
            Gateway(Golden.tcp(Golden.target(), [.timedOut])),
            Gateway(Golden.tcp(Golden.target(), [.unreachable("No route to host")]), beacon: Recorded.beacon()),
            Gateway(Golden.tcp(Golden.target(addresses: ["10.77.0.9"]), [.unreachable("No route to host")]), beacon: Recorded.beacon()),
            Gateway(Golden.tcp(Golden.target(addresses: ["192.168.1.30", "fe80::1%eth0"]), [.failed("connection reset"), .timedOut])),
            Gateway(
                Golden.report(Golden.target(addresses: ["192.168.1.30", "172.17.0.1"])) { report in
                    report.tcp.append(TCPAttempt(address: IPAddress("172.17.0.1")!, outcome: .timedOut, elapsed: .seconds(5)))
                }, beacon: Recorded.beacon()),
            Gateway(
                Golden.report(Golden.target(addresses: ["192.168.1.30", "192.168.1.31"])) { report in
                    report.tcp.append(TCPAttempt(address: IPAddress("192.168.1.31")!, outcome: .refused, elapsed: .milliseconds(1)))
                }),
        ]
    }

    static let tailnet = GoldenScene("tailnet") { scene in
        scene.system = Golden.onTailnet
        scene.discovery = Recorded.discovery(local: false)
        let off = Golden.target("wss://studio.tail1234.ts.net:18789", host: "studio.tail1234.ts.net", addresses: ["100.101.102.7"])
        scene.gateways = [Gateway(Golden.tcp(off, [.timedOut]), beacon: Recorded.beacon(source: .unicast, address: "100.101.102.7"))]
    }

    static let offTailnet = GoldenScene("off-tailnet") { scene in
        scene.discovery = Recorded.discovery(local: false)
        let off = Golden.target("wss://studio.tail1234.ts.net:18789", host: "studio.tail1234.ts.net", addresses: ["100.101.102.7"])
        scene.gateways = [Gateway(Golden.tcp(off, [.timedOut]))]
    }

    static let tls = GoldenScene("tls") { scene in
        scene.discovery = Recorded.discovery(beacons: [lanBeacon])
        let plain = Golden.target("ws://studio.local:18789", tls: false)
        func with(_ outcome: TLSOutcome) -> ProbeReport {
            Golden.report { $0.tls = PhaseTiming(outcome: outcome, elapsed: .milliseconds(9)) }
        }
        scene.gateways = [
            Gateway(with(.alert(TLSAlert(code: 70)))),
            Gateway(with(.alert(TLSAlert(code: 112)))),
            Gateway(with(.timedOut(bytesReceived: 0))),
            Gateway(with(.handshakeFailed("certificate verify failed"))),
            Gateway(with(.notTLS(firstBytes: Array("HTTP/1.1 400 Bad Request\r\n".utf8))), beacon: lanBeacon),
            Gateway(with(.notTLS(firstBytes: Array("SSH-2.0-OpenSSH_9.6\r\n".utf8)))),
            Gateway(with(.established(Golden.tlsFacts(version: .tls12)))),
            Gateway(Golden.report(plain)),
            Gateway(
                Golden.report(plain) { report in
                    report.health = PhaseTiming(outcome: .wantsTLS, elapsed: .milliseconds(2))
                    report.ready = PhaseTiming(outcome: .wantsTLS, elapsed: .milliseconds(2))
                    report.websocket = PhaseTiming(outcome: .wantsTLS, elapsed: .milliseconds(2))
                    report.connect = nil
                }, beacon: Recorded.beacon()),
            Gateway(
                Golden.report(plain) { report in
                    report.health = PhaseTiming(outcome: .wantsTLS, elapsed: .milliseconds(2))
                    report.websocket = PhaseTiming(outcome: .wantsTLS, elapsed: .milliseconds(2))
                    report.connect = nil
                }),
        ]
    }

    static let pinAndCertificate = GoldenScene("pin-cert") { scene in
        scene.discovery = Recorded.discovery(beacons: [lanBeacon])
        func with(_ facts: TLSFacts, advertised: TLSFingerprint? = nil) -> ProbeReport {
            Golden.report(Golden.target(advertised: advertised)) { $0.tls = PhaseTiming(outcome: .established(facts), elapsed: .zero) }
        }
        let facts = Golden.tlsFacts()
        scene.gateways = [
            Gateway(with(facts, advertised: Recorded.certificateSHA), pin: Recorded.otherSHA),
            Gateway(with(facts), pin: Recorded.certificateSHA, pinFromConfig: true),
            Gateway(with(facts, advertised: Recorded.otherSHA), pin: Recorded.certificateSHA),
            Gateway(with(facts, advertised: Recorded.otherSHA), beacon: lanBeacon),
            Gateway(with(facts)),
            Gateway(with(Golden.tlsFacts(notBefore: -400 * Golden.day, notAfter: -Golden.day))),
            Gateway(with(Golden.tlsFacts(notBefore: Golden.day))),
            Gateway(with(Golden.tlsFacts(notAfter: 3 * Golden.day, selfSigned: false))),
            Gateway(with(Golden.tlsFacts(readable: false))),
        ]
    }

    static let upperLayers = GoldenScene("http-websocket") { scene in
        func health(_ outcome: HTTPOutcome) -> Gateway {
            Gateway(Golden.report { $0.health = PhaseTiming(outcome: outcome, elapsed: .milliseconds(3)) })
        }
        func websocket(_ outcome: WebSocketOutcome) -> Gateway {
            Gateway(
                Golden.report { report in
                    report.websocket = PhaseTiming(outcome: outcome, elapsed: .milliseconds(4))
                    report.connect = nil
                })
        }
        scene.gateways = [
            health(.failed("connection reset by peer")), health(.timedOut(bytesReceived: 17)),
            health(.response(status: 404, body: "<html>Not Found</html>", server: "nginx/1.24.0")),
            health(.response(status: 200, body: "OK", server: nil)),
            Gateway(
                Golden.report { $0.ready = PhaseTiming(outcome: .response(status: 503, body: "starting", server: nil), elapsed: .zero) }),
            websocket(.upgradeRefused(status: 200)), websocket(.upgradeFailed("Sec-WebSocket-Accept does not match")),
            websocket(.timedOut(upgraded: false, bytesReceived: 0)), websocket(.timedOut(upgraded: true, bytesReceived: 2)),
            websocket(.frameTooLarge(limit: 65_536)), websocket(.closedBeforeFirstFrame(code: 1008)),
            websocket(.closedBeforeFirstFrame(code: nil)), websocket(.framesBroken("a ping flood")), websocket(.failed("connection reset")),
            websocket(
                .opened(
                    FirstFrame(
                        text: #"{"type":"event","event":"tick"}"#,
                        content: .unexpected(problem: "the first event is 'tick', not connect.challenge")),
                    closedCleanly: true)),
        ]
    }
}
