import DNSSD
import FoundationEssentials
import Glibc
import Host

/// What `clawnet report` reads from this machine besides doctor and browse: system files as
/// they are, the OpenClaw config and env file redacted, and the secrets beside them (never
/// put in the archive; only searched for, so that none leaves inside another file). Files of
/// the Gateway's user and of root only (`GatewayUser`).
package struct ReportSources: Sendable {
    /// Files for the archive.
    package var files: [ReportFile] = []
    /// What each redacted file had replaced (dotted config paths, env keys).
    package var redactions: [(file: String, what: [String])] = []
    /// The plain settings each redacted file shows as they are (`PlainSettings`).
    package var shown: [(file: String, what: [String])] = []
    /// Files read only for their secrets, or left out, and why.
    package var omitted: [(path: String, why: String)] = []
    /// Every secret found, to scrub from everything that goes into the archive.
    package var secrets: Set<String> = []
    /// Why some secret of this machine may not be known (a config that does not parse): then the
    /// files that could hold it (the Gateway's log and journal, OpenClaw's own reports) are left
    /// out, and the report does not claim that every secret was redacted.
    package var unsure: [String] = []
    /// Whose files and units count.
    package let gatewayUser: GatewayUser

    /// Recent lines of the Gateway's own log: at most this many bytes of its end.
    static let logTail = 128 << 10

    package init(gatewayUser: GatewayUser = GatewayUser(uid: geteuid())) {
        self.gatewayUser = gatewayUser
    }

    /// Reads it all; `home` is the user's home (the OpenClaw folder is `home/.openclaw` unless the
    /// environment names another),
    /// `configPath` the config when named elsewhere. A blocking call (BlockingThreads).
    package static func gather(home: String, configPath: String, environment: [String: String]) -> ReportSources {
        // The folder OpenClaw keeps its state, env file and identity in (OPENCLAW_STATE_DIR, a
        // profile's, else ~/.openclaw), as OpenClaw itself resolves it.
        let folder = NodeStateDirectory.path(environment: environment, home: home) ?? home + "/.openclaw"
        var sources = ReportSources(gatewayUser: .owning(folder, environment: environment))
        sources.system()
        sources.openClaw(folder: folder, configPath: configPath, environment: environment)
        sources.otherEnvFiles(home: home)
        sources.environment(environment)
        sources.journal(directory: environment[journalDirectoryVariable])
        return sources
    }

    /// Why the Gateway's own output is left out when some secret may not be known.
    package static let unsureWhy =
        "left out: the config (or a file it includes) does not parse, so not every secret in it is known (see `incomplete`)"

    /// Names a journal folder for the report to read instead of the machine's journal (a copy
    /// from another machine; the tests' journal made by systemd-journal-remote).
    package static let journalDirectoryVariable = "CLAWNET_JOURNAL_DIRECTORY"

    /// The Gateway's recent journal lines (GatewayJournal); where none can be read, the manifest
    /// says why they are absent.
    mutating func journal(tool: String = "/usr/bin/journalctl", directory: String?) {
        guard unsure.isEmpty else { return omitted.append(("gateway journal", Self.unsureWhy)) }
        switch GatewayJournal(tool: tool, directory: directory, user: gatewayUser).read() {
        case .success(let text): files.append(ReportFile("gateway-journal.txt", text: text))
        case .failure(let absence): omitted.append(("gateway journal", absence.why))
        }
    }

    mutating func system() {
        for (name, path) in [("resolv.conf", "/etc/resolv.conf"), ("os-release", "/etc/os-release")] {
            if let text = RegularFile.text(path, limit: FileLimit.resolvConf) { files.append(ReportFile(name, text: text)) }
        }
        if let text = RegularFile.text("/etc/nsswitch.conf", limit: FileLimit.systemFile) {
            let hosts = text.split(separator: "\n").filter { String($0).trimmingSpaces().hasPrefix("hosts:") }
            files.append(ReportFile("nsswitch-hosts.txt", text: hosts.joined(separator: "\n") + "\n"))
        }
        let kernel = RegularFile.text("/proc/sys/kernel/osrelease", limit: FileLimit.systemFile) ?? "unknown\n"
        files.append(ReportFile("kernel.txt", text: kernel))
        let interfaces = NetworkInterface.current().map { interface in
            "\(interface.name) up=\(interface.isUp) loopback=\(interface.isLoopback) multicast=\(interface.supportsMulticast) "
                + interface.addresses.map(\.description).joined(separator: " ")
        }
        files.append(ReportFile("interfaces.txt", text: interfaces.joined(separator: "\n") + "\n"))
        files.append(ReportFile("routes.txt", text: RouteListing.text()))
    }

    mutating func openClaw(folder: String, configPath: String, environment: [String: String] = [:]) {
        config(configPath)
        // The env file OpenClaw loads: its state folder's .env (follows openclaw/openclaw
        // src/infra/dotenv.ts loadDotEnv), wherever the config is.
        if let bytes = gatewayFile(folder + "/.env") { envFile(bytes, name: "openclaw.env") }
        // Secrets kept beside the config: read for what to scrub, never archived.
        for path in [folder + "/identity/device.json", folder + "/identity/device-auth.json"]
        where FileManager.default.fileExists(atPath: path) {
            if let bytes = try? RegularFile.read(path, limit: FileLimit.config) { secrets.formUnion(Self.words(of: bytes)) }
            omitted.append((path, "holds keys or credentials"))
        }
        credentialStores(folder: folder, environment: environment)
        gatewayLog()
    }

    /// A file of the Gateway's user (or root's, and readable by that user) for the archive, reached
    /// through no link of another user than this one or root (`ProtectedPath`); nil when there is
    /// none, or (said in the manifest) when it does not count.
    mutating func gatewayFile(_ path: String) -> [UInt8]? {
        switch Self.gatewayFile(path, user: gatewayUser) {
        case .success(let bytes): return bytes
        case .failure(let problem):
            omitted.append((path, problem.why))
            return nil
        }
    }

    /// The same, saying why when there is none.
    static func gatewayFile(_ path: String, user: GatewayUser) -> Result<[UInt8]?, ConfigIncludes.ReadProblem> {
        let file: RegularFile.Owned
        do {
            guard let read = try RegularFile.readProtectedIfPresent(path, limit: FileLimit.config) else { return .success(nil) }
            file = read
        } catch {
            return .failure(.init(why: error.description))
        }
        if let problem = user.problem(with: file) { return .failure(.init(why: problem)) }
        return .success(file.bytes)
    }

    /// Values of this process's environment whose names hold a secret's word (OPENCLAW_GATEWAY_TOKEN,
    /// SMTP_PASS, MYSQL_PWD, SENTRY_DSN, ...).
    mutating func environment(_ environment: [String: String]) {
        for (name, value) in environment where Self.namesSecret(name) { secrets.insert(value) }
    }

    /// Words of a variable's name that make its value a secret.
    static let secretWords: Set<String> = [
        "PASS", "PASSWORD", "PASSWD", "PWD", "PASSPHRASE", "TOKEN", "SECRET", "KEY", "APIKEY", "API", "DSN", "AUTH", "CREDENTIAL",
        "CREDENTIALS", "COOKIE", "PRIVATE", "SIGNATURE",
    ]

    static func namesSecret(_ name: String) -> Bool {
        guard !PlainSettings.isPlain(name), name != "PWD", name != "OLDPWD" else { return false }
        let words = name.uppercased().split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "." }).map(String.init)
        return ConfigRedaction.isSensitive(key: name) || words.contains(where: secretWords.contains)
    }

    /// Every string of a JSON file that holds secrets, else every run of non-space characters:
    /// any of them is scrubbed wherever it turns up (in every form, line by line: `SecretForms`).
    static func words(of bytes: [UInt8]) -> Set<String> {
        var found: [String] = []
        if ConfigRedaction.isUTF8(bytes), let root = try? JSONValue.parse(json5: Data(bytes)) {
            collect(root, into: &found)
        } else {
            found = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        }
        return Set(found.filter(SecretScrubber.searches))
    }

    static func collect(_ value: JSONValue, into found: inout [String]) {
        switch value {
        case .string(let text): found.append(text)
        case .array(let items): items.forEach { collect($0, into: &found) }
        case .object(let fields): fields.values.forEach { collect($0, into: &found) }
        case .number, .bool, .null: break
        }
    }
}
