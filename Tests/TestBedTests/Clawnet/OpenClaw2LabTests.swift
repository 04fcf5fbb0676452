import Foundation
import TestSupport
import Testing

/// OpenClaw 2 at the connect level (issue 32), on the lab LAN against the stand-in: each case
/// its cause and fix, named after the OpenClaw issue, PR or source file it comes from.
extension DoctorLabTests {
    /// (outcome, status of gw.connect, diagnosis id, words in the message or fix)
    static let openClaw2Outcomes: [(String, String, String, String)] = [
        // restart-unavailable.ts: UNAVAILABLE gateway-restarting, then close 1012; asked again.
        ("restarting", "warn", "gateway-restarting", "restarting (gateway-restarting)"),
        ("suspending", "warn", "gateway-restarting", "suspending (gateway-suspending)"),
        ("closing", "warn", "gateway-restarting", "closing (gateway-closing)"),
        ("close-1012", "warn", "gateway-restarting", "restarting (close 1012, service restart)"),
        // auth-rate-limit.ts: never asked again, how long to wait.
        ("rate-limited", "fail", "auth-rate-limited", "wait 300 s (retryAfterMs 300000)"),
        // #44089: a frame over 64 KiB before login.
        ("close-1009", "fail", "frame-too-large", "close 1009 message too big"),
        // docs/gateway/protocol/auth.md: device.pair.resolved, then close 4008.
        ("pairing-rejected", "fail", "pairing-rejected", "an operator rejected pairing request"),
        ("pairing-expired", "fail", "pairing-expired", "expired unapproved"),
        ("operator-access-denied", "fail", "operator-access-denied", "grants it nothing"),
        ("verified-user-required", "fail", "verified-user-required", "verified user identity"),
        ("tailscale-identity-missing", "fail", "tailscale-serve-identity", "AUTH_TAILSCALE_IDENTITY_MISSING"),
        ("tailscale-whois-failed", "fail", "tailscale-serve-identity", "AUTH_TAILSCALE_WHOIS_FAILED"),
        ("identity-header-required", "fail", "proxy-not-trusted", "AUTH_IDENTITY_HEADER_REQUIRED"),
        // #83078, #83153: a newer Gateway, both numbers, never a hardcoded version.
        ("protocol-mismatch", "fail", "protocol-mismatch", "the node is older than its Gateway: the Gateway speaks protocol v5"),
    ]

    @Test("OpenClaw 2 refusals from the stand-in: doctor names each with its own cause and fix", arguments: openClaw2Outcomes)
    func openClaw2Refusal(outcome: String, status: String, cause: String, words: String) async throws {
        let gateway = try await serveOnly(["--connect", outcome])
        var failure: (any Error)?
        do {
            let (exit, document, _) = try await doctorRun([gateway.url, "--no-local", "--check", "gw.connect"])
            let check = try gatewayCheck(document, "gw.connect", port: gateway.port)
            let text = "\(check["message"] ?? "") / \(check["fix"] ?? "")"
            #expect(check["status"] as? String == status, "\(outcome): \(check)")
            #expect(text.contains(words), "\(outcome): \(text)")
            #expect(diagnosisIDs(document) == [cause], "\(outcome): \(diagnosisIDs(document))")
            #expect(exit == (status == "fail" ? 1 : 0), "\(outcome): exit \(exit)")
            expectFixes(document)
        } catch {
            failure = error
        }
        _ = try? await gateway.process.stop()
        if let failure { throw failure }
    }

    @Test(
        "startup-unavailable.ts and auth-rate-limit.ts: a Gateway that says not now, then is back, passes; a rate limit is never asked again"
    )
    func restartThenBack() async throws {
        // --starting-for answers UNAVAILABLE while starting; a draining Gateway shares its retry (ConnectRetryTests).
        let gateway = try await serveOnly(["--starting-for", "1s"])
        var failure: (any Error)?
        do {
            let (_, document, output) = try await doctorRun([gateway.url, "--no-local", "--check", "gw.connect"])
            let check = try gatewayCheck(document, "gw.connect", port: gateway.port)
            #expect(check["status"] as? String == "pass", "\(check)")
            #expect((check["message"] as? String)?.contains("that it was starting (startup-sidecars)") == true, "\(check)")
            #expect(!output.contains("rate limited"))
        } catch {
            failure = error
        }
        _ = try? await gateway.process.stop()
        if let failure { throw failure }
        let limited = try await serveOnly(["--connect", "rate-limited"])
        do {
            let (_, document, _) = try await doctorRun([limited.url, "--no-local", "--check", "gw.connect"])
            #expect(diagnosisIDs(document) == ["auth-rate-limited"], "\(diagnosisIDs(document))")
        } catch {
            failure = error
        }
        // One connect request, never a second: the stand-in prints each one it reads (all of
        // its output is in once it has stopped).
        _ = try? await limited.process.stop()
        await limited.process.waitForOutputEnd()
        let seen = limited.process.output.components(separatedBy: "connect from ").count - 1
        #expect(seen == 1, "connect requests the stand-in read: \(seen)\n\(limited.process.output)")
        if let failure { throw failure }
    }

    @Test("auth-rate-limit.ts: watch reports the lockout and does not probe again before retryAfterMs, at --interval 1s")
    func watchRespectsLockout() async throws {
        let bed = try TestBed.current()
        let gateway = try await serveOnly(["--connect", "rate-limited"])
        let watch = try bed.spawnClawnet(
            ["watch", "--no-local", "--manual", gateway.url, "--interval", "1s", "--format", "jsonl"], on: .lnode,
            environment: ["HOME": bed.directory])
        var failure: (any Error)?
        do {
            let down = try await watch.waitForOutput("auth-rate-limited", timeout: .seconds(30))
            #expect(down.text.contains("\"down\""), "\(down.text)")
            // Four intervals with nothing to await: the absence of a second connect is the point.
            try await Task.sleep(for: .seconds(4))
        } catch {
            failure = error
        }
        watch.terminate()
        _ = try? await gateway.process.stop()
        await gateway.process.waitForOutputEnd()
        let seen = gateway.process.output.components(separatedBy: "connect from ").count - 1
        #expect(seen == 1, "connect requests during the lockout: \(seen)\n\(gateway.process.output)")
        if let failure { throw failure }
    }
}
