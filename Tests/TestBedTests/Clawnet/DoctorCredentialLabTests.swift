import Foundation
import Glibc
import Probes
import TestSupport
import Testing

/// Issue 18: credentials go only to a verified peer. Each test runs a real peer that records
/// what it received (the stand-in prints each connect request it answers, without the token;
/// the python peer writes the requests to a file) and asserts what doctor sent: never a token
/// or a device signature to a certificate that is not pinned or CA-issued for the host, to a
/// public address in clear text, or to a local listener another user runs.
extension DoctorLabTests {
    /// A file holding a secret as it should be kept (0600) in the test bed's folder.
    func secretFile(_ text: String, name: String = "secret") throws -> String {
        let bed = try TestBed.current()
        let path = "\(bed.directory)/\(name)-\(uniqueTag())"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    /// The next line the stand-in prints about a connect request, after line `from`.
    func connectLine(_ process: ChildProcess, from: Int) async throws -> String {
        try await process.waitForOutput("connect from ", from: from, timeout: .seconds(20)).text
    }

    func connectCheck(_ document: [String: Any], port: Int) throws -> (status: String, message: String, detail: [String: String]) {
        let check = try gatewayCheck(document, "gw.connect", port: port)
        return (check["status"] as? String ?? "", check["message"] as? String ?? "", check["detail"] as? [String: String] ?? [:])
    }

    @Test("a certificate that is not the pinned one, or not pinned at all, gets no token and no device signature; the pinned one gets both")
    func pinnedOrNothing() async throws {
        let token = "pin-token-\(uniqueTag())-planted"
        let tokenFile = try secretFile(token)
        let device = try secretFile(DeviceIdentity.generate().storedJSON(), name: "device")
        let gateway = try await serveOnly(["--token-file", tokenFile])
        var failure: (any Error)?
        do {
            let wrong = String(repeating: "ab", count: 32)
            let credentials = ["--token-file", tokenFile, "--as-device", device, "--no-local"]
            var seen = gateway.process.lines.count
            let (status, document, output) = try await doctorRun([gateway.url, "--pin", wrong] + credentials)
            var line = try await connectLine(gateway.process, from: seen)
            #expect(line.hasSuffix("no token, no device"), "the stand-in received: \(line)")
            #expect(status == 1, "a pin mismatch never exits 0")
            let mismatch = try connectCheck(document, port: gateway.port)
            #expect(mismatch.status == "fail" && mismatch.detail["credentialsReason"] == "withheldPinMismatch", "\(mismatch)")
            #expect(mismatch.message.contains("observed \(gateway.fingerprint)"), "\(mismatch.message)")
            #expect(diagnosisIDs(document) == ["pin-changed"], "\(diagnosisIDs(document))")
            #expect(!output.contains(token))

            seen = gateway.process.lines.count
            let (_, unpinned, _) = try await doctorRun([gateway.url] + credentials)
            line = try await connectLine(gateway.process, from: seen)
            #expect(line.hasSuffix("no token, no device"), "the stand-in received: \(line)")
            let withheld = try connectCheck(unpinned, port: gateway.port)
            #expect(withheld.status == "warn" && withheld.detail["observed"] == gateway.fingerprint, "\(withheld)")
            #expect(withheld.message.contains("self-signed") && withheld.message.contains("without it: answers connect"), "\(withheld)")

            seen = gateway.process.lines.count
            let (_, pinned, _) = try await doctorRun([gateway.url, "--pin", gateway.fingerprint] + credentials)
            line = try await connectLine(gateway.process, from: seen)
            #expect(line.contains("the token, device ") && line.hasSuffix("with a signature"), "the stand-in received: \(line)")
            let sent = try connectCheck(pinned, port: gateway.port)
            #expect(sent.detail["credentials"] == "sent", "\(sent)")
        } catch {
            failure = error
        }
        _ = try? await gateway.process.stop()
        if let failure { throw failure }
    }

    @Test("a node's config with the wrong tlsFingerprint: `doctor --check gw.connect` sends no gateway.remote.token and exits 1")
    func nodeConfigWrongPin() async throws {
        let token = "node-token-\(uniqueTag())-planted"
        let gateway = try await serveOnly(["--token-file", try secretFile(token)])
        var failure: (any Error)?
        do {
            let config = try writeConfig(
                """
                { gateway: { mode: 'remote', remote: { url: '\(gateway.url)', tlsFingerprint: '\(String(repeating: "cd", count: 32))',
                  token: '\(token)' } } }
                """)
            let seen = gateway.process.lines.count
            let (status, document, output) = try await doctorRun(["--config", config, "--no-local", "--check", "gw.connect"])
            let line = try await connectLine(gateway.process, from: seen)
            #expect(line.hasSuffix("no token, no device"), "the stand-in received: \(line)")
            #expect(status == 1, "\(notPassing(document))")
            #expect(try connectCheck(document, port: gateway.port).detail["credentialsReason"] == "withheldPinMismatch")
            #expect(!output.contains(token))
        } catch {
            failure = error
        }
        _ = try? await gateway.process.stop()
        if let failure { throw failure }
    }

    @Test("a CA-issued certificate (its root in SSL_CERT_FILE): the token goes to the address it names; without that root it does not")
    func caIssued() async throws {
        let bed = try TestBed.current()
        let address = bed.ip(.lgw)
        let (authority, certificate) = try await bed.makeCAIssuedCertificate(subjectAltName: "IP:\(address)")
        let record = "\(bed.directory)/received-\(uniqueTag()).jsonl"
        let (peer, port) = try await bed.startGatewayPeer(
            "gateway", host: .lgw, address: address, certificate: certificate, extraArguments: ["--record", record])
        var failure: (any Error)?
        do {
            let token = "ca-token-\(uniqueTag())-planted"
            let arguments = ["wss://\(address):\(port)", "--token-file", try secretFile(token), "--no-local", "--check", "gw.connect"]
            let (_, trusted, _) = try await doctorRun(arguments, environment: ["SSL_CERT_FILE": authority])
            let sent = try connectCheck(trusted, port: port)
            #expect(sent.detail["credentials"] == "sent" && sent.message.contains("a CA this machine trusts issued"), "\(sent)")
            let (_, untrusted, _) = try await doctorRun(arguments)
            let withheld = try connectCheck(untrusted, port: port)
            #expect(withheld.detail["credentialsReason"] == "withheldUnverified", "\(withheld)")
            #expect(withheld.message.contains("no CA this machine trusts issued it"), "\(withheld.message)")
            let received = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map { try jsonObject(String($0)) }
            let tokens = received.map { (($0["params"] as? [String: Any])?["auth"] as? [String: Any])?["token"] as? String }
            #expect(tokens == [token, nil], "what the peer received, in order: \(tokens)")
        } catch {
            failure = error
        }
        _ = try? await peer.stop()
        if let failure { throw failure }
    }

    @Test("plain ws:// to a public-looking address gets no token (clear text); the same Gateway on its LAN address gets it")
    func plainTextPublic() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let gateway = try bed.spawnClawnet(["advertise", "--serve-only", "--port", String(port)], on: .lgw)
        var failure: (any Error)?
        do {
            try await gateway.waitForOutput("like a Gateway (plain", timeout: .seconds(20))
            let token = "plain-token-\(uniqueTag())-planted"
            let tokenFile = try secretFile(token)
            var seen = gateway.lines.count
            let publicAddress = bed.value("TB_LGW_PUBLIC_IP")
            let (_, document, output) = try await doctorRun(["ws://\(publicAddress):\(port)", "--token-file", tokenFile, "--no-local"])
            var line = try await connectLine(gateway, from: seen)
            #expect(line.hasSuffix("no token, no device"), "the stand-in received: \(line)")
            let withheld = try connectCheck(document, port: port)
            #expect(withheld.detail["credentialsReason"] == "withheldPlainText" && withheld.status == "warn", "\(withheld)")
            #expect(withheld.message.contains("clear text"), "\(withheld.message)")
            #expect(!output.contains(token))
            seen = gateway.lines.count
            _ = try await doctorRun(["ws://\(bed.ip(.lgw)):\(port)", "--token-file", tokenFile, "--no-local"])
            line = try await connectLine(gateway, from: seen)
            #expect(line.contains("a token"), "on the LAN the stand-in received: \(line)")
        } catch {
            failure = error
        }
        _ = try? await gateway.stop()
        if let failure { throw failure }
    }

    @Test("a Gateway host whose port another user (nobody) listens on: the host's token is withheld and doctor says so; root's gets it")
    func foreignLocalListener() async throws {
        let bed = try TestBed.current()
        let token = "host-token-\(uniqueTag())-planted"
        func standIn(asNobody: Bool) async throws -> (ChildProcess, Int) {
            let port = testPort()
            let user = asNobody ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
            let binary = try asNobody ? bed.clawnetForOtherUsers() : ClawnetBinary.path
            let process = try bed.spawn(
                on: .lnode, user + [binary, "advertise", "--serve-only", "--port", String(port), "--bind", "127.0.0.1"])
            try await process.waitForOutput("like a Gateway (plain", timeout: .seconds(20))
            return (process, port)
        }
        for nobody in [true, false] {
            let (process, port) = try await standIn(asNobody: nobody)
            var failure: (any Error)?
            do {
                let config = try secretFile("{ gateway: { port: \(port), auth: { token: '\(token)' } } }", name: "openclaw.json")
                let seen = process.lines.count
                let (_, document, output) = try await doctorRun(["--config", config, "--no-local"])
                let line = try await connectLine(process, from: seen)
                let connect = try connectCheck(document, port: port)
                if nobody {
                    #expect(line.hasSuffix("no token, no device"), "nobody's listener received: \(line)")
                    #expect(connect.detail["credentialsReason"] == "withheldLocalListener", "\(connect)")
                    #expect(connect.message.contains("run by uid 65534"), "\(connect.message)")
                } else {
                    #expect(line.contains("a token"), "root's listener received: \(line)")
                    #expect(connect.message.contains("run by root"), "\(connect.message)")
                }
                #expect(!output.contains(token))
            } catch {
                failure = error
            }
            _ = try? await process.stop()
            if let failure { throw failure }
        }
    }

    @Test("nobody listening on this machine's own non-loopback address gets no token and no device signature; doctor says who listens")
    func foreignListenerOnOwnAddress() async throws {
        let bed = try TestBed.current()
        let token = "own-address-token-\(uniqueTag())-planted"
        let tokenFile = try secretFile(token)
        let port = testPort()
        let address = bed.ip(.lnode)
        let process = try bed.spawn(
            on: .lnode,
            [
                "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", bed.clawnetForOtherUsers(), "advertise", "--serve-only",
                "--port",
                String(port), "--bind", address,
            ])
        var failure: (any Error)?
        do {
            try await process.waitForOutput("like a Gateway (plain", timeout: .seconds(20))
            let seen = process.lines.count
            let (_, document, output) = try await doctorRun(["ws://\(address):\(port)", "--token-file", tokenFile, "--no-local"])
            let line = try await connectLine(process, from: seen)
            #expect(line.hasSuffix("no token, no device"), "nobody's listener on \(address) received: \(line)")
            let connect = try connectCheck(document, port: port)
            #expect(connect.detail["credentialsReason"] == "withheldLocalListener", "\(connect)")
            #expect(connect.message.contains("run by uid 65534"), "\(connect.message)")
            #expect(!output.contains(token))
        } catch {
            failure = error
        }
        _ = try? await process.stop()
        if let failure { throw failure }
    }

    @Test("nobody listening on 0.0.0.0, reached by a name that resolves to 0.0.0.0: no token; the connection's other end is found here")
    func foreignListenerThroughUnspecified() async throws {
        let bed = try TestBed.current()
        let token = "unspecified-token-\(uniqueTag())-planted"
        let tokenFile = try secretFile(token)
        let port = testPort()
        // A *.ts.net name takes plain ws://; /etc/hosts (bound over the namespace's) says 0.0.0.0.
        let name = "zero-\(uniqueTag()).tail0.ts.net"
        let hosts = "\(bed.directory)/hosts-\(uniqueTag())"
        try "127.0.0.1 localhost\n0.0.0.0 \(name)\n".write(toFile: hosts, atomically: true, encoding: .utf8)
        let process = try bed.spawn(
            on: .lnode,
            [
                "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", bed.clawnetForOtherUsers(), "advertise", "--serve-only",
                "--port",
                String(port), "--bind", "0.0.0.0",
            ])
        var failure: (any Error)?
        do {
            try await process.waitForOutput("like a Gateway (plain", timeout: .seconds(20))
            let seen = process.lines.count
            let script = "mount --bind \(hosts) /etc/hosts && exec \"$0\" \"$@\""
            let result = try await bed.run(
                on: .lnode,
                [
                    "sh", "-c", script, ClawnetBinary.path, "doctor", "--json", "--timeout", "3s", "ws://\(name):\(port)", "--token-file",
                    tokenFile, "--no-local",
                ], environment: ["HOME": bed.directory], timeout: .seconds(40))
            let line = try await connectLine(process, from: seen)
            #expect(line.hasSuffix("no token, no device"), "nobody's listener on 0.0.0.0 received: \(line)")
            let connect = try connectCheck(try jsonObject(result.stdout), port: port)
            #expect(connect.detail["credentialsReason"] == "withheldLocalListener", "\(connect)")
            #expect(!(result.stdout + result.stderr).contains(token))
        } catch {
            failure = error
        }
        _ = try? await process.stop()
        if let failure { throw failure }
    }
}
