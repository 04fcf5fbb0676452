import Foundation
import Glibc
import Probes
import TestSupport
import Testing

/// Issue 18, secrets at rest and in messages, through the binary on the test bed's `bare` host
/// (every packet stays on its loopback): a planted secret never reaches stdout, stderr, JSON or
/// --verbose logs from any error path; secret files open to others get a warning; folders for
/// keys are 0700 under umask 000; a config that cannot be read is named by every command.
@Suite("secrets: never printed, kept private, fallbacks said", .testBed)
struct SecretsCommandTests {
    /// base64 (it decodes to 32 bytes), and a plain word: one of them is quoted wherever a
    /// parser might quote a field.
    static let planted = "UExBTlRFRC1zZWNyZXQtNDJfeHl6LWNsYXduZXQ+Pz8="
    static let plantedWord = "PLANTEDsecret42xyzClawnetQ"

    func scratch() throws -> String {
        let bed = try TestBed.current()
        let directory = "\(bed.directory)/secrets-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    func write(_ text: String, _ path: String, mode: mode_t = 0o600) throws -> String {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, mode)
        return path
    }

    func expectNoSecret(_ result: CommandResult, _ what: String, secrets: [String] = [planted, plantedWord]) {
        let output = result.stdout + result.stderr
        for secret in secrets { #expect(!output.contains(secret.prefix(16)), "\(what) printed the secret: \(output)") }
    }

    static let tsigFiles = [
        "hmac-sha256:\(planted):clawnet", "\(planted):hmac-sha256:clawnet", "clawnet:\(planted):hmac-sha256", "\(planted):clawnet",
        "hmac-sha256:\(plantedWord):clawnet",
        "key \"clawnet\" { algorithm \"\(planted)\"; secret \"hmac-sha256\"; };",
        "key \"clawnet\" { algorithm \(plantedWord); secret \"\(planted)\"; };",
        "key \"\(planted)\" { algorithm hmac-sha256; secret \"clawnet\"; };",
        "key:\n  - id: clawnet\n    algorithm: \(planted)\n    secret: hmac-sha256\n",
        "key:\n  - id: \(planted)\n    algorithm: hmac-sha256\n    secret: \(planted)\n",
    ]

    @Test("a TSIG key file with its fields swapped or wrong: zone check, zone push and advertise refuse it without the secret")
    func tsigKeyFiles() async throws {
        let bed = try TestBed.current()
        let directory = try scratch()
        for (index, text) in Self.tsigFiles.enumerated() {
            let key = try write(text, "\(directory)/key-\(index).conf")
            for arguments in [
                ["zone", "check", "--domain", "openclaw.internal", "--server", "127.0.0.1:9", "--axfr", "--tsig-key", key],
                [
                    "zone", "push", "--domain", "openclaw.internal", "--server", "127.0.0.1:9", "--tsig-key", key, "--gateway",
                    "host=a,ip=100.64.0.1",
                ],
                [
                    "advertise", "--name", "T (OpenClaw)", "--domain", "openclaw.internal", "--server", "127.0.0.1:9", "--tsig-key", key,
                    "--no-local",
                ],
            ] {
                let result = try await bed.clawnet(arguments + ["--verbose"], on: .bare, timeout: .seconds(20))
                #expect(result.status == 2, "\(arguments[0...1]) on \(text): exit \(result.status)")
                #expect(result.stderr.contains(key), "\(result.stderr)")
                expectNoSecret(result, "\(arguments[0...1]) on \(text)")
            }
        }
    }

    @Test("a good key the server never answers: --verbose logs and JSON name the key, never its secret")
    func tsigKeyInUse() async throws {
        let bed = try TestBed.current()
        let key = try write("key \"clawnet\" { algorithm hmac-sha256; secret \"\(Self.planted)\"; };\n", "\(try scratch())/good.key")
        for arguments in [
            [
                "zone", "push", "--domain", "openclaw.internal", "--server", "127.0.0.1:9", "--tsig-key", key, "--gateway",
                "host=a,ip=100.64.0.1",
                "--timeout", "2s",
            ],
            ["zone", "check", "--domain", "openclaw.internal", "--server", "127.0.0.1:9", "--axfr", "--tsig-key", key, "--format", "json"],
        ] {
            let result = try await bed.clawnet(arguments + ["--verbose"], on: .bare, timeout: .seconds(30))
            #expect(result.status != 0, "\(arguments[0...1]): exit \(result.status)")
            expectNoSecret(result, "\(arguments[0...1])", secrets: [Self.planted])
        }
    }

    @Test("configs holding a token, broken in every way the parser reports: no command prints the token")
    func configTokens() async throws {
        let bed = try TestBed.current()
        let directory = try scratch()
        let token = Self.plantedWord
        let configs = [
            "{ gateway: { auth: { token: '\(token)' }, port: 'x' } }", "{ gateway: { auth: { token: '\(token)' } }, \u{1}",
            "{ gateway: { remote: { token: '\(token)\\q' } } }", "{ gateway: { auth: { token: '\(token)",
            "{ gateway: { auth: { token: \(token) } } }",
            "{ gateway: { mode: 'remote', remote: { token: { source: 'file', provider: 'p', id: '\(token)' }, url: 'wss://127.0.0.1:9' } } }",
            "[ '\(token)' ]", "{ gateway: { auth: { token: ['\(token)'] } } }",
        ]
        for (index, text) in configs.enumerated() {
            let config = try write(text, "\(directory)/openclaw-\(index).json")
            for arguments in [
                ["doctor", "--config", config, "--no-local", "--timeout", "2s", "--verbose"],
                ["doctor", "--config", config, "--no-local", "--timeout", "2s", "--json"],
                ["preflight", "--config", config, "--no-local", "--timeout", "2s", "--json"],
                ["browse", "--config", config, "--no-local", "--manual", "127.0.0.1:9", "--timeout", "1s", "--format", "json"],
            ] {
                let result = try await bed.clawnet(arguments, on: .bare, timeout: .seconds(30))
                expectNoSecret(result, "\(arguments[0]) on \(text)", secrets: [token])
            }
        }
    }

    @Test("token and device identity files that cannot be used: the refusal names the file, never what is in it")
    func unusableCredentialFiles() async throws {
        let bed = try TestBed.current()
        let directory = try scratch()
        let secret = Self.plantedWord
        let files: [(String, [UInt8])] = [
            ("--token-file", [0xFF, 0xFE] + Array(secret.utf8)), ("--token-file", Array("\n\(secret)\n".utf8)),
            ("--token-file", Array(String(repeating: secret, count: 200).utf8)),
            (
                "--as-device",
                Array(#"{"deviceId":"x","privateKeyPem":"-----BEGIN PRIVATE KEY-----\#(secret)-----END PRIVATE KEY-----"}"#.utf8)
            ),
            ("--as-device", Array(#"{"deviceId":"x","privateKey":"\#(secret)"#.utf8)),
            ("--as-device", Array(#"{"privateKey":"\#(Self.planted)AAAA"}"#.utf8)),
        ]
        for (index, (flag, bytes)) in files.enumerated() {
            let path = "\(directory)/credential-\(index)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
            let result = try await bed.clawnet(["doctor", "127.0.0.1:9", flag, path, "--no-local", "--timeout", "1s"], on: .bare)
            #expect(result.status == 2 && result.stderr.contains(path), "\(flag) \(index): exit \(result.status) \(result.stderr)")
            expectNoSecret(result, "\(flag) \(index)")
        }
    }

    @Test("credentials in a URL (user info, ?token=, #token=), typed or in gateway.remote.url, never reach a report")
    func urlCredentials() async throws {
        let bed = try TestBed.current()
        let token = Self.plantedWord
        let url = "wss://operator:\(token)@127.0.0.1:9/?token=\(token)#token=\(token)"
        let config = try write("{ gateway: { mode: 'remote', remote: { url: '\(url)' } } }", "\(try scratch())/openclaw.json")
        for arguments in [
            ["doctor", url, "--no-local", "--timeout", "1s"], ["doctor", url, "--no-local", "--timeout", "1s", "--json", "--verbose"],
            ["preflight", url, "--no-local", "--timeout", "1s", "--json"], ["doctor", "--config", config, "--no-local", "--timeout", "1s"],
            ["browse", "--no-local", "--manual", url, "--timeout", "1s", "--format", "json"],
        ] {
            let result = try await bed.clawnet(arguments, on: .bare, timeout: .seconds(30))
            expectNoSecret(result, "\(arguments[0])", secrets: [token])
            #expect((result.stdout + result.stderr).contains("127.0.0.1"), "\(arguments): \(result.stdout)")
        }
    }

    @Test("token, device identity, TSIG key and config files open to group or others: a warning with `chmod 600`; private ones: none")
    func permissionWarnings() async throws {
        let bed = try TestBed.current()
        let directory = try scratch()
        let tokenFile = try write("perm-token\n", "\(directory)/token")
        let device = try write(DeviceIdentity.generate().storedJSON(), "\(directory)/device.json")
        let key = try write("hmac-sha256:clawnet:\(Self.planted)\n", "\(directory)/tsig.key")
        let config = try write("{ gateway: { auth: { token: 'cfg-token' } } }", "\(directory)/openclaw.json")
        let runs: [(String, [String])] = [
            (tokenFile, ["doctor", "127.0.0.1:9", "--token-file", tokenFile, "--no-local", "--timeout", "1s"]),
            (tokenFile, ["preflight", "127.0.0.1:9", "--token-file", tokenFile, "--no-local", "--timeout", "1s"]),
            (device, ["doctor", "127.0.0.1:9", "--as-device", device, "--no-local", "--timeout", "1s"]),
            (key, ["zone", "check", "--domain", "openclaw.internal", "--server", "127.0.0.1:9", "--axfr", "--tsig-key", key]),
            (config, ["doctor", "--config", config, "--no-local", "--timeout", "1s"]),
        ]
        for (file, arguments) in runs {
            for mode: mode_t in [0o644, 0o640, 0o600] {
                chmod(file, mode)
                let result = try await bed.clawnet(arguments, on: .bare, timeout: .seconds(30))
                let warned = result.stderr.contains("warning: \(file) holds") && result.stderr.contains("`chmod 600 \(file)`")
                #expect(warned == (mode != 0o600), "\(arguments[0]) with \(file) at \(String(mode, radix: 8)): \(result.stderr)")
            }
        }
    }

    @Test("--tls-dir under umask 000: the folders made are 0700, the key 0600, the certificate 0644")
    func tlsDirectoryUmask() async throws {
        let bed = try TestBed.current()
        let directory = try scratch()
        let tls = "\(directory)/keys/tls"
        let port = testPort()
        let script = "umask 000 && exec \"$0\" \"$@\""
        let process = try bed.spawn(
            on: .bare,
            [
                "sh", "-c", script, ClawnetBinary.path, "advertise", "--serve-only", "--port", String(port), "--bind", "127.0.0.1",
                "--tls-dir", tls,
            ])
        var failure: (any Error)?
        do {
            try await process.waitForOutput("like a Gateway (TLS 1.3", timeout: .seconds(30))
            for (path, expected) in [
                ("\(directory)/keys", 0o700), (tls, 0o700), ("\(tls)/gateway-key.pem", 0o600), ("\(tls)/gateway-cert.pem", 0o644),
            ] {
                let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int
                #expect(mode == expected, "\(path): \(mode.map { String($0, radix: 8) } ?? "missing")")
            }
        } catch {
            failure = error
        }
        _ = try? await process.stop()
        if let failure { throw failure }
    }

    @Test(
        "--tls-dir another user controls (mode 777, or nobody's folder): refused with the fix, no key written there (issue 18)",
        arguments: ["mode 777", "nobody's"])
    func tlsDirectoryOfOthers(_ kind: String) async throws {
        let bed = try TestBed.current()
        let tls = try scratch() + "/tls"
        try FileManager.default.createDirectory(atPath: tls, withIntermediateDirectories: true)
        #expect(kind == "mode 777" ? chmod(tls, 0o777) == 0 : chown(tls, 65534, 65534) == 0)
        let result = try await bed.clawnet(
            ["advertise", "--serve-only", "--port", String(testPort()), "--bind", "127.0.0.1", "--tls-dir", tls], on: .bare,
            timeout: .seconds(30))
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        let reason = kind == "mode 777" ? "is writable by group or others" : "belongs to uid 65534"
        #expect(result.stderr.contains("the folder \(tls) \(reason)") && result.stderr.contains("chmod 700 \(tls)"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tls).isEmpty, "nothing written there")
    }

    @Test("--tls-dir named by another user's link (or with one on the way), or in a folder another user owns: refused, nothing written")
    func tlsDirectoryThroughOthers() async throws {
        let bed = try TestBed.current()
        let base = try scratch()
        let theirs = base + "/theirs"
        let rootsOwn = base + "/roots"
        for folder in [theirs, rootsOwn] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        #expect(chmod(rootsOwn, 0o700) == 0 && chown(theirs, 65534, 65534) == 0)
        #expect(symlink(rootsOwn, theirs + "/tls") == 0 && lchown(theirs + "/tls", 65534, 65534) == 0)
        // A third attack: nobody's link one level up (theirs/up -> roots), the key folder under it.
        #expect(symlink(rootsOwn, theirs + "/up") == 0 && lchown(theirs + "/up", 65534, 65534) == 0)
        for (tls, words) in [
            (theirs + "/tls", "is a symbolic link of uid 65534"), (theirs + "/new", "belongs to uid 65534"),
            (theirs + "/up/tls", "\(theirs)/up is a symbolic link of uid 65534"),
        ] {
            let result = try await bed.clawnet(
                ["advertise", "--serve-only", "--port", String(testPort()), "--bind", "127.0.0.1", "--tls-dir", tls], on: .bare,
                timeout: .seconds(30))
            #expect(result.status == 1, "\(tls): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains(words), "\(tls): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: rootsOwn).isEmpty, "nothing written in root's folder")
        #expect(!FileManager.default.fileExists(atPath: theirs + "/new"), "no folder made in nobody's")
    }

    @Test("a config that cannot be read (a folder; another user's 0600 file): browse, preflight, doctor and zone generate each say so")
    func unreadableConfig() async throws {
        let bed = try TestBed.current()
        let home = try scratch()
        try FileManager.default.createDirectory(atPath: "\(home)/.openclaw/openclaw.json", withIntermediateDirectories: true)
        let commands = [
            ["browse", "--no-local", "--manual", "127.0.0.1:9", "--timeout", "1s"], ["preflight", "--no-local", "--timeout", "1s"],
            ["preflight", "--no-local", "--timeout", "1s", "--json"], ["doctor", "--no-local", "--timeout", "1s", "--all"],
            ["zone", "generate", "--domain", "openclaw.internal", "--gateway", "host=a,ip=100.64.0.1"],
        ]
        for arguments in commands {
            let result = try await bed.clawnet(arguments, on: .bare, environment: ["HOME": home], timeout: .seconds(30))
            #expect(
                (result.stdout + result.stderr).contains("\(home)/.openclaw/openclaw.json is a directory"),
                "\(arguments): \(result.stdout) \(result.stderr)")
            if arguments.last == "--json" {
                let warnings = try jsonObject(result.stdout)["warnings"] as? [String] ?? []
                #expect(warnings.contains { $0.contains("openclaw.json is a directory") }, "\(result.stdout)")
                try await expectMatches(result.stdout, "clawnet.preflight.v2", "preflight with warnings", bed: bed)
            }
        }
        let quiet = try await bed.clawnet(
            ["preflight", "--no-local", "--timeout", "1s", "--quiet"], on: .bare, environment: ["HOME": home])
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "--quiet: \(quiet.stderr)")

        // Another user's file, as nobody reads it: permission denied, said so.
        let other = try scratch()
        chmod(other, 0o755)
        try FileManager.default.createDirectory(atPath: "\(other)/.openclaw", withIntermediateDirectories: true)
        chmod("\(other)/.openclaw", 0o755)
        _ = try write("{ gateway: { port: 18789 } }", "\(other)/.openclaw/openclaw.json")
        let binary = try bed.clawnetForOtherUsers()
        let nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "env", "HOME=\(other)", binary]
        let denied = try await bed.run(on: .bare, nobody + ["preflight", "--no-local", "--timeout", "1s", "--json"], timeout: .seconds(30))
        #expect(denied.stderr.contains("openclaw.json: Permission denied; using defaults"), "\(denied.stderr)")
    }
}
