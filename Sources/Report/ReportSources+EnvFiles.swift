import DNSSD
import FoundationEssentials
import Host

extension ReportSources {
    /// Unit files of the Gateway looked at for its working directory, at most, in each folder.
    static let gatewayUnitsRead = 32

    /// An env file for the archive (`name`): each variable as OpenClaw's dotenv reads it, every
    /// value redacted but plain settings, and searched for everywhere.
    mutating func envFile(_ bytes: [UInt8], name: String) {
        let env = ReportEnvFile(String(decoding: bytes, as: UTF8.self))
        files.append(ReportFile(name, text: env.text))
        redactions.append((name, env.redacted))
        if !env.shown.isEmpty { shown.append((name, env.shown)) }
        secrets.formUnion(env.secrets)
    }

    /// The env files OpenClaw loads besides its state folder's `.env`, on Linux:
    /// `~/.config/openclaw/gateway.env` (openclaw/openclaw src/infra/dotenv-global.ts
    /// loadGlobalRuntimeDotEnvFiles, which reads it unless OPENCLAW_STATE_DIR names another state
    /// folder), in the archive redacted as gateway.env; and the `.env` of the Gateway's working
    /// directory (src/infra/dotenv.ts loadDotEnv, loadWorkspaceDotEnvFile), read only for its
    /// values: a project's file, not OpenClaw's. The working directory is the WorkingDirectory= of
    /// the Gateway's systemd units, and the home of its user, where systemd starts a user unit
    /// without one (and where a Gateway started by hand often runs).
    mutating func otherEnvFiles(home: String, systemUnits: String = "/etc/systemd/system") {
        if let bytes = gatewayFile(home + "/.config/openclaw/gateway.env") { envFile(bytes, name: "gateway.env") }
        for folder in Self.workingDirectories(home: home, systemUnits: systemUnits, user: gatewayUser) {
            let path = (folder.hasSuffix("/") ? folder : folder + "/") + ".env"
            guard path != home + "/.openclaw/.env", let bytes = gatewayFile(path) else { continue }
            secrets.formUnion(ReportEnvFile(String(decoding: bytes, as: UTF8.self)).secrets)
            omitted.append(
                (path, "the .env of the Gateway's working directory, which OpenClaw loads: searched for its values, never included"))
        }
    }

    /// The Gateway's working directories: `home`, and WorkingDirectory= of each
    /// openclaw-gateway*.service of its user and of the system (files of that user or root).
    static func workingDirectories(home: String, systemUnits: String, user: GatewayUser) -> [String] {
        var folders = [home]
        for (folder, defaultDirectory) in [(home + "/.config/systemd/user", home), (systemUnits, "/")] {
            let units = entries(of: folder).filter { $0.hasPrefix("openclaw-gateway") && $0.hasSuffix(".service") }
            for unit in units.prefix(gatewayUnitsRead) {
                guard case .success(let bytes?) = gatewayFile("\(folder)/\(unit)", user: user) else { continue }
                let directory = workingDirectory(String(decoding: bytes, as: UTF8.self), home: home) ?? defaultDirectory
                if !folders.contains(directory) { folders.append(directory) }
            }
        }
        return folders
    }

    /// The [Service] section's last WorkingDirectory= (systemd.exec(5): a leading `-` makes it
    /// optional, `~` and `%h` are the user's home); nil when it has none.
    static func workingDirectory(_ unit: String, home: String) -> String? {
        var section = ""
        var directory: String?
        for raw in unit.split(whereSeparator: \.isNewline) {
            let line = String(raw).trimmingSpaces()
            if line.hasPrefix("[") { section = line }
            guard section == "[Service]", line.hasPrefix("WorkingDirectory=") else { continue }
            var value = String(line.dropFirst("WorkingDirectory=".count)).trimmingSpaces()
            if value.hasPrefix("-") { value.removeFirst() }
            if value == "~" || value.hasPrefix("~/") { value = home + value.dropFirst() }
            directory = value.isEmpty ? nil : value.replacing("%h", with: home)
        }
        return directory?.hasPrefix("/") == true ? directory : nil
    }
}
