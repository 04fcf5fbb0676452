import Foundation
import Host
import Report
import TestSupport
import Testing

/// `clawnet report` in the test bed's node namespace, with an OpenClaw folder that holds a
/// distinct secret in every place OpenClaw keeps one, the env file and key files beside it,
/// and a token in the environment: none may appear in the unpacked archive, as it is, in
/// base64 (each alignment) or in hexadecimal (each case).
@Suite("clawnet report: one archive, every secret redacted", .testBed)
struct ReportCommandTests {
    static let pem = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIPlantedDevicePrivateKeyMaterialZZ9x
        -----END PRIVATE KEY-----
        """

    /// The planted secrets by where they are, and the config that holds them.
    static func plant(tag: String) -> (secrets: [String: String], config: String) {
        var secrets: [String: String] = [:]
        func secret(_ place: String) -> String {
            let value = "Zq\(secrets.count)x\(tag)Sx7"
            secrets[place] = value
            return value
        }
        let config = """
            // JSON5, as OpenClaw writes it
            {
              gateway: {
                mode: "remote", port: 18789,
                auth: { mode: "token", token: "\(secret("gateway.auth.token"))", password: "\(secret("gateway.auth.password"))" },
                remote: { url: "wss://gw.example:18789", token: "\(secret("gateway.remote.token"))",
                          password: "\(secret("gateway.remote.password"))", tlsFingerprint: "sha256:ab" },
                tls: { keyPem: \(String(reflecting: pem)) },
              },
              channels: {
                telegram: { botToken: "\(secret("channels.telegram.botToken"))", webhookSecret: "\(secret("channels.telegram.webhookSecret"))" },
                slack: { botToken: "\(secret("channels.slack.botToken"))", appToken: "\(secret("channels.slack.appToken"))",
                         signingSecret: "\(secret("channels.slack.signingSecret"))" },
                discord: { token: "\(secret("channels.discord.token"))" },
                matrix: { accessToken: "\(secret("channels.matrix.accessToken"))", password: "\(secret("channels.matrix.password"))" },
              },
              models: { providers: {
                openai: { apiKey: "\(secret("models.providers.openai.apiKey"))" },
                vault: { apiKey: { source: "env", provider: "default", id: "\(secret("models.providers.vault.apiKey.id"))" } },
              } },
              hooks: { token: "\(secret("hooks.token"))" },
              talk: { apiKey: "\(secret("talk.apiKey"))" },
              skills: { entries: { search: { apiKey: "\(secret("skills.entries.search.apiKey"))",
                                             env: { SEARCH_API_KEY: "\(secret("skills.entries.search.env"))",
                                                    LINEAR_API: "\(secret("skills.entries.search.env.LINEAR_API"))" } } } },
              env: { SMTP_PASS: "\(secret("env.SMTP_PASS"))",
                     vars: { GROQ_API_KEY: "\(secret("env.vars.GROQ_API_KEY"))", MYSQL_PWD: "\(secret("env.vars.MYSQL_PWD"))",
                             IMAP_PASS: "\(secret("env.vars.IMAP_PASS"))", LINEAR_API: "\(secret("env.vars.LINEAR_API"))",
                             SENTRY_DSN: "https://\(secret("env.vars.SENTRY_DSN"))@o1.ingest.sentry.io/2", OPENCLAW_LOG_LEVEL: "debug" } },
              browser: { cdpUrl: "http://admin:\(secret("browser.cdpUrl.password"))@127.0.0.1:9222" },
              discovery: { wideArea: { domain: "openclaw.internal" } },
              agents: { defaults: { maxTokens: 4096, model: "openai/gpt" } },
            }
            """
        return (secrets, config)
    }

    @Test("no planted secret is in the archive raw, in base64 or in hex; keys and the manifest remain")
    func everySecretRedacted() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let home = "\(bed.directory)/report-home-\(tag)"
        let folder = "\(home)/.openclaw"
        try FileManager.default.createDirectory(atPath: "\(folder)/identity", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(folder)/credentials", withIntermediateDirectories: true)
        var (secrets, config) = Self.plant(tag: tag)
        try config.write(toFile: "\(folder)/openclaw.json", atomically: true, encoding: .utf8)
        let env = Self.plantEnvFile(tag: tag)
        secrets.merge(env.secrets) { $1 }
        try env.text.write(toFile: "\(folder)/.env", atomically: true, encoding: .utf8)
        secrets["device private key"] = "PlantedDevicePrivateKeyMaterialZZ9x"
        let device = #"{"version":1,"deviceId":"d1","publicKeyPem":"-","privateKeyPem":\#(String(reflecting: Self.pem))}"#
        try device.write(toFile: "\(folder)/identity/device.json", atomically: true, encoding: .utf8)
        secrets["oauth refresh token"] = "ZqOauth\(tag)Sx7"
        try #"{"openai":{"refresh_token":"\#(secrets["oauth refresh token"]!)"}}"#
            .write(toFile: "\(folder)/credentials/oauth.json", atomically: true, encoding: .utf8)
        secrets["process environment"] = "ZqProcessEnv\(tag)Sx7"
        secrets["process SMTP_PASS"] = "ZqProcessSmtp\(tag)Sx7"

        // The Gateway logged the env file's values in the ways logs hold them.
        let journal = try await Self.journal(bed, Self.loggedForms(of: env.secrets, tag: tag))
        let archive = "\(bed.directory)/report-\(tag).tar.gz"
        let result = try await bed.clawnet(
            ["report", "--out", archive, "--timeout", "2s"], on: .node,
            environment: [
                "HOME": home, "OPENCLAW_GATEWAY_TOKEN": secrets["process environment"]!, "SMTP_PASS": secrets["process SMTP_PASS"]!,
                ReportSources.journalDirectoryVariable: journal,
            ], timeout: .seconds(90))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let unpacked = "\(bed.directory)/report-\(tag)"
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
        let untar = try await runCommand("/usr/bin/tar", ["-xzf", archive, "-C", unpacked])
        #expect(untar.status == 0, "tar reads the archive: \(untar.stderr)")
        let root = "\(unpacked)/clawnet-report"
        let names = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
        for name in [
            "doctor.json", "doctor.txt", "browse.json", "versions.txt", "openclaw.json", "openclaw.env", "resolv.conf", "manifest.json",
            "nsswitch-hosts.txt", "interfaces.txt", "routes.txt", "kernel.txt", "avahi.txt", "gateway-journal.txt",
        ] {
            #expect(names.contains(name), "\(name) missing from \(names)")
        }
        var everything = Data()
        for name in names { everything += try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(name)")) }
        let archived = try Data(contentsOf: URL(fileURLWithPath: archive))
        for (place, secret) in secrets.sorted(by: { $0.key < $1.key }) {
            for (form, text) in Self.forms(of: secret) + Self.encodedForms(of: secret) {
                #expect(everything.range(of: Data(text.utf8)) == nil, "the secret of \(place) is in the archive (\(form): \(text))")
            }
            #expect(archived.range(of: Data(secret.utf8)) == nil, "\(place) in the compressed bytes")
        }
        let journalText = try String(contentsOfFile: "\(root)/gateway-journal.txt", encoding: .utf8)
        #expect(journalText.contains("smtp login \(tag) [REDACTED]"), "the journal's lines are there, scrubbed: \(journalText)")
        let envText = try String(contentsOfFile: "\(root)/openclaw.env", encoding: .utf8)
        #expect(envText.contains("\nOPENCLAW_LOG_LEVEL=debug\n") && envText.contains("\nSMTP_PASS=[REDACTED]\n"), "\(envText)")
        let redactedConfig = try String(contentsOfFile: "\(root)/openclaw.json", encoding: .utf8)
        #expect(redactedConfig.contains(#""OPENCLAW_LOG_LEVEL" : "debug""#), "a plain setting is shown: \(redactedConfig)")
        for key in ["botToken", "signingSecret", "apiKey", "\"source\" : \"env\"", "maxTokens", "openclaw.internal", "[REDACTED]"] {
            #expect(redactedConfig.contains(key), "the redacted config keeps \(key):\n\(redactedConfig)")
        }
        let manifest = try jsonObject(String(contentsOfFile: "\(root)/manifest.json", encoding: .utf8))
        let redactions = try #require(manifest["redactions"] as? [[String: Any]])
        let paths = redactions.flatMap { $0["redacted"] as? [String] ?? [] }
        for path in [
            "gateway.auth.token", "channels.slack.signingSecret", "models.providers.vault.apiKey.id", "OPENAI_API_KEY",
            "env.vars.MYSQL_PWD",
            "skills.entries.search.env.LINEAR_API", "TLS_KEY",
        ] {
            #expect(paths.contains(path), "the manifest names \(path): \(paths)")
        }
        let shown = redactions.flatMap { $0["shown"] as? [String] ?? [] }
        #expect(shown.contains("env.vars.OPENCLAW_LOG_LEVEL") && shown.contains("OPENCLAW_LOG_LEVEL"), "\(shown)")
        let listed = (manifest["files"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(Set(listed + ["manifest.json"]) == Set(names), "the manifest names every file")
        let again = try await bed.clawnet(["report", "--out", archive], on: .node, environment: ["HOME": home])
        #expect(again.status == 2, "an existing file is never replaced: \(again.stderr)")
        #expect(again.stderr.contains("Usage: clawnet report "), "report's own usage line: \(again.stderr)")
        #expect(again.stderr.contains("See 'clawnet report --help'"), "\(again.stderr)")
        #expect(!again.stderr.contains("<subcommand>"), "not the top-level usage: \(again.stderr)")
    }

    @Test("the zone as BIND serves it (AXFR), names escaped, a TXT equal to the token as received (no [REDACTED]); the journal's absence")
    func servedZoneAndJournal() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let secret = "ZqZoneToken\(tag)Sx7"
        let zone = openClawZone([
            "gw IN A \(bed.ip(.gw))", #"_openclaw-gw._tcp IN PTR bell\007gw._openclaw-gw._tcp"#,
            #"bell\007gw._openclaw-gw._tcp IN SRV 0 0 18789 gw"#, #"bell\007gw._openclaw-gw._tcp IN TXT "role=gateway" "note=\#(secret)""#,
        ])
        let dns = try await bed.startBIND(zones: ["openclaw.internal": zone], zoneOptions: "allow-transfer { any; };")
        defer { dns.terminate() }
        let config = #"{ gateway: { auth: { token: "\#(secret)" } }, discovery: { wideArea: { domain: "openclaw.internal" } } }"#
        let root = try await Self.unpackedReport(bed, config: config, server: dns.endpoint)
        let served = try String(contentsOfFile: "\(root)/zone-openclaw.internal.txt", encoding: .utf8)
        #expect(served.contains("as \(dns.address)#\(dns.port) serves it, read by AXFR"), "\(served)")
        #expect(served.contains(#"bell\007gw._openclaw-gw._tcp.openclaw.internal. 60 IN SRV 0 0 18789 gw.openclaw.internal."#), "\(served)")
        #expect(!served.unicodeScalars.contains("\u{07}"), "the name's control character is escaped, never raw")
        #expect(served.contains("note=\(secret)") && !served.contains("[REDACTED]"), "the DNS server's answer as received: \(served)")
        let manifest = try jsonObject(String(contentsOfFile: "\(root)/manifest.json", encoding: .utf8))
        let files = (manifest["files"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(files.contains("zone-openclaw.internal.txt"), "\(files)")
        let origins = (manifest["files"] as? [[String: Any]])?.filter { $0["name"] as? String == "zone-openclaw.internal.txt" }
        #expect(origins?.first?["origin"] as? String == "network", "\(String(describing: origins))")
        let omitted = (manifest["omitted"] as? [[String: Any]]) ?? []
        let journal = omitted.first { $0["item"] as? String == "gateway journal" }
        if FileManager.default.fileExists(atPath: "/run/systemd/journal") {
            #expect(files.contains("gateway-journal.txt"), "journald runs here: its lines are in the archive")
        } else {
            let why = try #require(journal?["why"] as? String, "the manifest says why the journal is absent: \(omitted)")
            #expect(why.contains("no systemd journal") || why.contains("not installed"), "\(why)")
            #expect(!files.contains("gateway-journal.txt"))
        }
    }

    @Test("a server that refuses AXFR: the report holds the Gateways' RRsets read by queries, and says so")
    func servedZoneByQueries() async throws {
        let bed = try TestBed.current()
        let zone = openClawZone([
            "gw IN A \(bed.ip(.gw))", #"_openclaw-gw._tcp IN PTR Bell._openclaw-gw._tcp"#,
            #"Bell._openclaw-gw._tcp IN SRV 0 0 18789 gw"#, #"Bell._openclaw-gw._tcp IN TXT "role=gateway""#,
        ])
        let dns = try await bed.startBIND(zones: ["openclaw.internal": zone], zoneOptions: "allow-transfer { none; };")
        defer { dns.terminate() }
        let root = try await Self.unpackedReport(
            bed, config: #"{ discovery: { wideArea: { domain: "openclaw.internal" } } }"#, server: dns.endpoint)
        let served = try String(contentsOfFile: "\(root)/zone-openclaw.internal.txt", encoding: .utf8)
        #expect(served.contains("read by queries for its Gateways' RRsets (AXFR refused"), "\(served)")
        #expect(served.contains("Bell._openclaw-gw._tcp.openclaw.internal. 60 IN SRV 0 0 18789 gw.openclaw.internal."), "\(served)")
        #expect(served.contains(#"Bell._openclaw-gw._tcp.openclaw.internal. 60 IN TXT "role=gateway""#), "\(served)")
    }

    @Test("the journal: the Gateway's units and its user's, token scrubbed; 70 fake units and another user's planted line stay out")
    func gatewayJournal() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let secret = "ZqJournalToken\(tag)Sx7"
        // A journal file as journald writes one, made by systemd-journal-remote from export format:
        // the system unit, the Gateway user's profile unit (uid 1000, not root: `--user-unit` alone
        // would miss it), the user manager's own line about that unit, a unit that is not the
        // Gateway's; and uid 1001's lines: 70 units named like the Gateway's, and a line logged with
        // USER_UNIT set to the Gateway's unit that holds the token (a guess to test).
        var entries: [[String: String]] = [
            ["_SYSTEMD_UNIT": "openclaw-gateway.service", "_UID": "0", "MESSAGE": "system gateway \(tag) auth token=\(secret)"],
            [
                "_SYSTEMD_UNIT": "user@1000.service", "_SYSTEMD_USER_UNIT": "openclaw-gateway-work.service", "_UID": "1000",
                "MESSAGE": "user gateway \(tag) listening on ws://127.0.0.1:18789",
            ],
            [
                "_SYSTEMD_UNIT": "user@1000.service", "USER_UNIT": "openclaw-gateway-work.service", "_UID": "1000",
                "MESSAGE": "openclaw-gateway-work.service: Main process exited, code=exited, status=1/FAILURE \(tag)",
            ],
            ["_SYSTEMD_UNIT": "ssh.service", "_UID": "0", "MESSAGE": "not the gateway \(tag)"],
            [
                "_SYSTEMD_UNIT": "session-9.scope", "USER_UNIT": "openclaw-gateway-work.service", "_UID": "1001",
                "MESSAGE": "planted \(secret)",
            ],
        ]
        for index in 0..<70 {
            let unit = "openclaw-gateway-\(String(format: "%02d", index)).service"
            entries.append([
                "_SYSTEMD_UNIT": "user@1001.service", "_SYSTEMD_USER_UNIT": unit, "_UID": "1001", "MESSAGE": "fake \(index) \(tag)",
            ])
        }
        let journal = try await Self.journal(bed, entries)
        let config = #"{ gateway: { auth: { token: "\#(secret)" } } }"#
        let root = try await Self.unpackedReport(
            bed, config: config, environment: [ReportSources.journalDirectoryVariable: journal], owner: 1000)
        let text = try String(contentsOfFile: "\(root)/gateway-journal.txt", encoding: .utf8)
        #expect(text.contains("system gateway \(tag) auth token=[REDACTED]"), "the system unit's line, token scrubbed: \(text)")
        #expect(text.contains("user gateway \(tag) listening"), "the user's profile unit: \(text)")
        #expect(text.contains("Main process exited, code=exited, status=1/FAILURE \(tag)"), "the user manager's line: \(text)")
        #expect(!text.contains("not the gateway \(tag)"), "another unit's line stays out: \(text)")
        #expect(!text.contains("planted"), "another user's line under the Gateway's unit name stays out, never [REDACTED]: \(text)")
        #expect(!text.contains("fake "), "another user's units stay out: \(text)")
        #expect(!text.contains("were not read"), "70 names fit; none is left out silently or otherwise: \(text)")
        #expect(!text.contains(secret), "no raw token: \(text)")
        let manifest = try String(contentsOfFile: "\(root)/manifest.json", encoding: .utf8)
        #expect(manifest.contains(#""gatewayUser" : "uid 1000"#), "\(manifest)")
        try await expectMatches(manifest, "clawnet.report-manifest.v2", "the report's manifest", bed: bed)
    }

    /// Journal entries in systemd's export format, one second apart from now.
    static func exportFormat(_ entries: [[String: String]]) -> String {
        let now = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        return entries.enumerated().map { index, fields in
            var lines = [
                "__CURSOR=s=0;i=\(index)", "__REALTIME_TIMESTAMP=\(now + UInt64(index) * 1_000_000)",
                "__MONOTONIC_TIMESTAMP=\(index + 1)", "_BOOT_ID=0123456789abcdef0123456789abcdef", "_HOSTNAME=gw",
                "SYSLOG_IDENTIFIER=openclaw", "PRIORITY=6",
            ]
            lines += fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return lines.joined(separator: "\n") + "\n\n"
        }.joined()
    }

    @Test("report --config - reads the piped config once for doctor and again for the archive: there, its token redacted")
    func configFromStandardInput() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let token = "pipedToken\(tag)"
        let archive = "\(bed.directory)/report-piped-\(tag).tar.gz"
        let config = #"{"gateway":{"auth":{"token":"\#(token)"}}}"#
        let script = "printf '%s' \"$CONFIG\" | \(ClawnetBinary.path) report --config - --out \(archive) --timeout 5s"
        let result = try await bed.run(
            on: .node, ["/bin/bash", "-c", script], environment: ["CONFIG": config, "HOME": "/nonexistent"], timeout: .seconds(90))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let unpacked = "\(bed.directory)/report-piped-\(tag)"
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
        #expect(try await runCommand("/usr/bin/tar", ["-xzf", archive, "-C", unpacked]).status == 0)
        let kept = try String(contentsOfFile: "\(unpacked)/clawnet-report/openclaw.json", encoding: .utf8)
        #expect(kept.contains("[REDACTED]") && !kept.contains(token), "\(kept)")
    }

    /// `clawnet report --server SERVER` run on node with `config` as the OpenClaw config of a
    /// home of its own (its .openclaw folder given to `owner`: the Gateway's user); the folder the
    /// archive unpacks to.
    static func unpackedReport(
        _ bed: TestBed, config: String, server: String? = nil, environment: [String: String] = [:], arguments: [String] = [],
        owner: UInt32 = 0, timeout: String = "2s"
    ) async throws -> String {
        let tag = uniqueTag()
        let home = "\(bed.directory)/report-home-\(tag)"
        try FileManager.default.createDirectory(atPath: "\(home)/.openclaw", withIntermediateDirectories: true)
        try config.write(toFile: "\(home)/.openclaw/openclaw.json", atomically: true, encoding: .utf8)
        if owner != 0 { #expect(chown("\(home)/.openclaw", owner, owner) == 0) }
        let archive = "\(bed.directory)/report-\(tag).tar.gz"
        let result = try await bed.clawnet(
            ["report", "--out", archive, "--timeout", timeout] + (server.map { ["--server", $0] } ?? []) + arguments, on: .node,
            environment: environment.merging(["HOME": home]) { $1 },
            timeout: .seconds(90))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        return try await unpack(bed, archive)
    }

    /// The archive unpacked with tar; its clawnet-report folder.
    static func unpack(_ bed: TestBed, _ archive: String) async throws -> String {
        let unpacked = "\(bed.directory)/unpacked-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
        let untar = try await runCommand("/usr/bin/tar", ["-xzf", archive, "-C", unpacked])
        #expect(untar.status == 0, "tar reads the archive: \(untar.stderr)")
        return "\(unpacked)/clawnet-report"
    }

    /// The secret as it is, in hex (both cases) and in base64 at each of the three alignments
    /// (the characters that depend on the secret alone).
    static func forms(of secret: String) -> [(String, String)] {
        let bytes = Array(secret.utf8)
        var forms = [("raw", secret)]
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        forms += [("hex", hex), ("HEX", hex.uppercased())]
        for shift in 0..<3 {
            let encoded = Array((Data(repeating: 0, count: shift) + Data(bytes)).base64EncodedString())
            let first = (shift * 8 + 5) / 6
            let last = (shift + bytes.count) * 8 / 6
            forms.append(("base64+\(shift)", String(encoded[first..<last])))
        }
        return forms
    }
}
