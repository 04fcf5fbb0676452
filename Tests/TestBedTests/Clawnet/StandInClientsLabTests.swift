import Foundation
import TestSupport
import Testing

/// Third-party OpenClaw clients from PyPI against the stand-in (issue 32): openclaw-sdk itself,
/// and what openclaw-webchat-adapter and agentwatch-cli send (scripts/peers/openclaw_clients.py
/// says why those two are played). On the lab LAN, plain ws:// as these clients use it.
extension DoctorLabTests {
    /// A stand-in without TLS on lgw; its process and URL.
    func plainStandIn(_ extra: [String]) async throws -> (process: ChildProcess, url: String) {
        let bed = try TestBed.current()
        let port = testPort()
        let process = try bed.spawnClawnet(
            ["advertise", "--serve-only", "--port", String(port), "--bind", bed.ip(.lgw), "--tick-interval", "1s"] + extra, on: .lgw)
        try await process.waitForOutput("like a Gateway (plain", timeout: .seconds(20))
        return (process, "ws://\(bed.ip(.lgw)):\(port)")
    }

    /// openclaw_clients.py on lnode: its last line, as JSON.
    func client(_ arguments: [String], home: String? = nil) async throws -> [String: Any] {
        let bed = try TestBed.current()
        let result = try await bed.run(
            on: .lnode, [bed.python, bed.scripts + "/peers/openclaw_clients.py"] + arguments,
            environment: home.map { ["HOME": $0] } ?? [:], timeout: .seconds(90))
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try jsonObject(last.isEmpty ? "{}" : last).merging(["stderr": result.stderr]) { $1 }
    }

    /// A device identity and device-auth token in a HOME of their own (OpenClaw's files).
    func clientHome(token: String) async throws -> (home: String, deviceId: String) {
        let bed = try TestBed.current()
        let home = "\(bed.directory)/client-home-\(uniqueTag())"
        let made = try await client(["identity", home, token])
        return (home, try #require(made["deviceId"] as? String, "\(made)"))
    }

    @Test("openclaw-sdk (PyPI, protocol [3,3], v2 signature, #83078): refused by a 2026.9 Gateway, served by a v3 one with ticks")
    func openClawSDK() async throws {
        let bed = try TestBed.current()
        let token = "sdk-\(uniqueTag())"
        let tokenFile = "\(bed.directory)/sdk-token-\(uniqueTag())"
        try token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let (home, deviceId) = try await clientHome(token: token)
        for (release, served) in [([String](), false), (["--connect", "protocol-3"], true)] {
            let standIn = try await plainStandIn(release + ["--token-file", tokenFile, "--paired-device", deviceId])
            var failure: (any Error)?
            do {
                let result = try await client(["sdk", standIn.url, home, "1"], home: home)
                // The SDK calls itself connected either way; health() says whether it is.
                #expect(result["healthy"] as? Bool == served && result["healthyAfterTicks"] as? Bool == served, "\(release): \(result)")
                if !served {
                    #expect((result["stderr"] as? String)?.contains("Gateway connect failed: protocol mismatch") == true, "\(result)")
                }
            } catch {
                failure = error
            }
            _ = try? await standIn.process.stop()
            if let failure { throw failure }
        }
    }

    @Test("what openclaw-webchat-adapter and agentwatch-cli send: hello-ok (a v2 signature taken), ticks every interval, health answered")
    func webchatAndAgentwatch() async throws {
        let bed = try TestBed.current()
        let token = "web-\(uniqueTag())"
        let tokenFile = "\(bed.directory)/web-token-\(uniqueTag())"
        try token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let (home, deviceId) = try await clientHome(token: token)
        let standIn = try await plainStandIn(["--connect", "protocol-3", "--token-file", tokenFile, "--paired-device", deviceId])
        var failure: (any Error)?
        do {
            for arguments in [["webchat", standIn.url, home, token, "1"], ["agentwatch", standIn.url, token, "1"]] {
                let result = try await client(arguments)
                #expect(result["ok"] as? Bool == true, "\(arguments[0]): \(result)")
                // 2.5 intervals: at least two ticks, and never the 4000 close of a client that saw none.
                #expect((result["ticks"] as? Int ?? 0) >= 2, "\(arguments[0]): \(result)")
                #expect(result["health"] as? Bool == true && result["open"] as? Bool == true, "\(arguments[0]): \(result)")
            }
        } catch {
            failure = error
        }
        _ = try? await standIn.process.stop()
        if let failure { throw failure }
    }

    @Test("a client id or mode outside OpenClaw's lists, or no client: \"invalid connect params\", close 1008 \"invalid handshake\"")
    func invalidConnectParams() async throws {
        let standIn = try await plainStandIn([])
        var failure: (any Error)?
        do {
            for (kind, words) in [
                ("bad-id", "at /client/id: must be equal to one of the allowed values"),
                ("bad-mode", "at /client/mode: must be equal to one of the allowed values"),
                ("no-client", "at root: must have required property 'client'"),
            ] {
                let result = try await client(["invalid", standIn.url, kind])
                let message = (result["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message == "invalid connect params: \(words)", "\(kind): \(result)")
                #expect(
                    result["closeCode"] as? Int == 1008 && result["closeReason"] as? String == "invalid handshake", "\(kind): \(result)")
            }
        } catch {
            failure = error
        }
        _ = try? await standIn.process.stop()
        if let failure { throw failure }
    }

    @Test("#55294: 32 WebSockets of one address that never log in; the 33rd gets 503, doctor names it; 15 s later all are closed")
    func unauthenticatedLimit() async throws {
        let bed = try TestBed.current()
        let standIn = try await plainStandIn([])
        let holder = try bed.spawn(on: .lnode, [bed.python, bed.scripts + "/peers/openclaw_clients.py", "hold", standIn.url, "34", "30"])
        var failure: (any Error)?
        do {
            let held = try await holder.waitForOutput("\"opened\"", timeout: .seconds(60))
            #expect(held.text.contains("\"opened\": 32, \"refused503\": 2"), "\(held.text)")
            let (exit, document, _) = try await doctorRun([standIn.url, "--no-local"])
            let webSocket = try gatewayCheck(document, "gw.websocket", port: Int(standIn.url.split(separator: ":").last ?? "") ?? 0)
            #expect(
                webSocket["status"] as? String == "fail" && (webSocket["message"] as? String)?.contains("Too many unauthenticated") == true)
            #expect(diagnosisIDs(document) == ["unauthenticated-limit"], "\(diagnosisIDs(document))")
            #expect(exit == 1)
            // The Gateway's 15 s handshake limit: none of the 32 is left open when the holder looks again.
            _ = try await holder.waitForExit(timeout: .seconds(60))
            await holder.waitForOutputEnd()
            let last = try jsonObject(holder.stdout.split(separator: "\n").last.map(String.init) ?? "{}")
            #expect(last["stillOpen"] as? Int == 0, "\(last)")
        } catch {
            failure = error
        }
        holder.terminate()
        _ = try? await standIn.process.stop()
        if let failure { throw failure }
    }
}
