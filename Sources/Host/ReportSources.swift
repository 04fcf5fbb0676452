import DNSSD
import FoundationEssentials
import Glibc

/// What `clawnet report` reads from this machine besides doctor and browse: system files as
/// they are, the OpenClaw config and env file redacted, and the secrets beside them (never
/// put in the archive; only searched for, so that none leaves inside another file).
public struct ReportSources: Sendable {
    /// Files for the archive: its name inside, and the content.
    public var files: [(name: String, content: [UInt8])] = []
    /// What each redacted file had replaced (dotted config paths, env keys).
    public var redactions: [(file: String, what: [String])] = []
    /// Files read only for their secrets, or left out, and why.
    public var omitted: [(path: String, why: String)] = []
    /// Every secret found, to scrub from everything that goes into the archive.
    public var secrets: Set<String> = []

    /// Recent lines of the Gateway's own log: at most this many bytes of its end.
    static let logTail = 128 << 10

    public init() {}

    /// Reads it all; `home` is the user's home (the OpenClaw folder is `home/.openclaw` unless the
    /// environment names another),
    /// `configPath` the config when named elsewhere. A blocking call (BlockingThreads).
    public static func gather(home: String, configPath: String, environment: [String: String]) -> ReportSources {
        var sources = ReportSources()
        sources.system()
        // The folder OpenClaw keeps its state, env file and identity in (OPENCLAW_STATE_DIR, a
        // profile's, else ~/.openclaw), as OpenClaw itself resolves it.
        let folder = NodeStateDirectory.path(environment: environment, home: home) ?? home + "/.openclaw"
        sources.openClaw(folder: folder, configPath: configPath)
        sources.environment(environment)
        sources.journal(directory: environment[journalDirectoryVariable])
        return sources
    }

    /// Names a journal folder for the report to read instead of the machine's journal (a copy
    /// from another machine; the tests' journal made by systemd-journal-remote).
    public static let journalDirectoryVariable = "CLAWNET_JOURNAL_DIRECTORY"

    /// The Gateway's recent journal lines (GatewayJournal); where none can be read, the manifest
    /// says why they are absent.
    mutating func journal(tool: String = "/usr/bin/journalctl", directory: String?) {
        switch GatewayJournal(tool: tool, directory: directory).read() {
        case .success(let text): files.append(("gateway-journal.txt", Array(text.utf8)))
        case .failure(let absence): omitted.append(("gateway journal", absence.why))
        }
    }

    mutating func system() {
        for (name, path) in [("resolv.conf", "/etc/resolv.conf"), ("os-release", "/etc/os-release")] {
            if let text = RegularFile.text(path, limit: FileLimit.resolvConf) { files.append((name, Array(text.utf8))) }
        }
        if let text = RegularFile.text("/etc/nsswitch.conf", limit: FileLimit.systemFile) {
            let hosts = text.split(separator: "\n").filter { String($0).trimmingSpaces().hasPrefix("hosts:") }
            files.append(("nsswitch-hosts.txt", Array((hosts.joined(separator: "\n") + "\n").utf8)))
        }
        let kernel = RegularFile.text("/proc/sys/kernel/osrelease", limit: FileLimit.systemFile) ?? "unknown\n"
        files.append(("kernel.txt", Array(kernel.utf8)))
        let interfaces = NetworkInterface.current().map { interface in
            "\(interface.name) up=\(interface.isUp) loopback=\(interface.isLoopback) multicast=\(interface.supportsMulticast) "
                + interface.addresses.map(\.description).joined(separator: " ")
        }
        files.append(("interfaces.txt", Array((interfaces.joined(separator: "\n") + "\n").utf8)))
        var routes = ""
        for path in ["/proc/net/route", "/proc/net/ipv6_route"] {
            routes += "# \(path)\n" + (RegularFile.text(path, limit: FileLimit.kernelTable) ?? "(unreadable)\n")
        }
        files.append(("routes.txt", Array(routes.utf8)))
    }

    mutating func openClaw(folder: String, configPath: String) {
        // A --config pipe was read once already (for doctor): readInput gives what it held again.
        let config = RegularFile.isStream(configPath) ? (try? RegularFile.readInput(configPath, limit: FileLimit.config))?.bytes : nil
        if let bytes = config ?? (try? RegularFile.readIfPresent(configPath, limit: FileLimit.config)) {
            if let redaction = ConfigRedaction(config: bytes) {
                files.append(("openclaw.json", Array(redaction.text.utf8)))
                redactions.append(("openclaw.json", redaction.redactedPaths))
                secrets.formUnion(redaction.secrets)
            } else {
                omitted.append((configPath, "not a JSON5 object: left out whole, since its secrets cannot be found"))
                secrets.formUnion(Self.words(of: bytes))
            }
        }
        // The env file OpenClaw loads: its state folder's .env (follows openclaw/openclaw
        // src/infra/dotenv.ts loadDotEnv), wherever the config is.
        if let bytes = try? RegularFile.readIfPresent(folder + "/.env", limit: FileLimit.config) {
            let (text, keys, values) = Self.redactedEnv(String(decoding: bytes, as: UTF8.self))
            files.append(("openclaw.env", Array(text.utf8)))
            redactions.append(("openclaw.env", keys))
            secrets.formUnion(values)
        }
        // Secrets kept beside the config: read for what to scrub, never archived.
        for path in [folder + "/identity/device.json", folder + "/identity/device-auth.json", folder + "/credentials/oauth.json"]
        where FileManager.default.fileExists(atPath: path) {
            if let bytes = try? RegularFile.read(path, limit: FileLimit.config) { secrets.formUnion(Self.words(of: bytes)) }
            omitted.append((path, "holds keys or credentials"))
        }
        gatewayLog()
    }

    /// The end of OpenClaw's newest rolling log, however large it is. The folder is in /tmp, where
    /// anyone may make it: a log is read only when it is a regular file (no symbolic link) owned
    /// by whoever owns the folder.
    mutating func gatewayLog(folder: String = logFolder) {
        guard let log = Self.newestLog(in: folder) else {
            omitted.append(("gateway log", "no OpenClaw log in \(folder) (a Gateway writes openclaw-YYYY-MM-DD.log there)"))
            return
        }
        var folderStatus = stat()
        do {
            let (bytes, owner, size) = try RegularFile.tail(log, bytes: Self.logTail)
            guard lstat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR, folderStatus.st_uid == owner else {
                omitted.append((log, "not owned by the owner of \(folder): left out"))
                return
            }
            files.append(("gateway-log.txt", bytes))
            if size > bytes.count { omitted.append((log, "only its last \(bytes.count) of \(size) bytes are included")) }
        } catch {
            omitted.append((log, error.description))
        }
    }

    /// Values of this process's environment whose names look like secrets (OPENCLAW_GATEWAY_TOKEN...).
    mutating func environment(_ environment: [String: String]) {
        for (name, value) in environment where ConfigRedaction.isSensitive(key: name) { secrets.insert(value) }
    }

    /// KEY=VALUE lines with every value replaced; comments and blank lines kept.
    static func redactedEnv(_ text: String) -> (String, [String], Set<String>) {
        var keys: [String] = []
        var values: Set<String> = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let trimmed = String(line).trimmingSpaces()
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { return String(line) }
            let key = String(trimmed[..<equals])
            var value = String(trimmed[trimmed.index(after: equals)...])
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            keys.append(key)
            if !value.isEmpty { values.insert(value) }
            return "\(key)=\(ConfigRedaction.marker)"
        }
        return (lines.joined(separator: "\n"), keys, values)
    }

    /// Every string of a JSON file that holds secrets (and each line of a PEM block in one),
    /// else every run of non-space characters: any of them is scrubbed wherever it turns up.
    static func words(of bytes: [UInt8]) -> Set<String> {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        var found: [String] = []
        if ConfigRedaction.isUTF8(bytes), let root = try? decoder.decode(JSONValue.self, from: Data(bytes)) {
            collect(root, into: &found)
        } else {
            found = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        }
        let pieces = found.flatMap { text in [text] + text.split(whereSeparator: \.isNewline).map(String.init) + [pemBody(text)] }
        return Set(pieces.filter { $0.utf8.count >= SecretScrubber.minimumLength })
    }

    static func collect(_ value: JSONValue, into found: inout [String]) {
        switch value {
        case .string(let text): found.append(text)
        case .array(let items): items.forEach { collect($0, into: &found) }
        case .object(let fields): fields.values.forEach { collect($0, into: &found) }
        case .number, .bool, .null: break
        }
    }

    /// The base64 of a PEM block without its BEGIN/END lines and line breaks ("" when none).
    static func pemBody(_ text: String) -> String {
        guard text.contains("-----BEGIN") else { return "" }
        return text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
    }

    /// Where OpenClaw's rolling log is (openclaw/openclaw src/logging/logger.ts DEFAULT_LOG_DIR).
    static let logFolder = "/tmp/openclaw"

    /// OpenClaw's rolling log (openclaw-YYYY-MM-DD.log), newest by name.
    static func newestLog(in folder: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("openclaw-") && $0.hasSuffix(".log") }.max().map { "\(folder)/\($0)" }
    }
}
