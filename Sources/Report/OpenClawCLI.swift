import DNSSD
import FoundationEssentials
import Glibc
import Host

/// The `openclaw` command line on this machine, as `clawnet report` runs it: found on PATH and
/// where npm, Homebrew and OpenClaw's installer put it; run as the Gateway's user (so that it
/// reads that user's config; `setpriv` drops root's rights), and only when nobody but that user
/// or root can change the program: a root-run report must not run what another user can rewrite.
package struct OpenClawCLI: Sendable {
    /// The program found (a link, as found).
    package let path: String
    /// Who it runs as.
    let user: GatewayUser
    /// Its environment: a plain one, the user's home, OpenClaw's own location variables.
    let environment: [String]

    static let setpriv = "/usr/bin/setpriv"

    /// The folders looked in, in order: PATH; npm's global prefix (NPM_CONFIG_PREFIX, `prefix=`
    /// in ~/.npmrc, ~/.npm-global, npm's default /usr/local); nvm's and pnpm's; Homebrew's
    /// (HOMEBREW_PREFIX, /home/linuxbrew/.linuxbrew, ~/.linuxbrew, /opt/homebrew).
    package static func folders(environment: [String: String], homes: [String]) -> [String] {
        var folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        for prefix in [environment["NPM_CONFIG_PREFIX"], environment["npm_config_prefix"], environment["HOMEBREW_PREFIX"]] {
            if let prefix, prefix.hasPrefix("/") { folders.append(prefix + "/bin") }
        }
        for home in homes {
            folders += npmrcPrefix(home: home).map { [$0 + "/bin"] } ?? []
            folders += [home + "/.npm-global/bin", home + "/.local/share/pnpm", home + "/.linuxbrew/bin", home + "/.local/bin"]
            folders += nvmFolders(home: home)
        }
        folders += ["/usr/local/bin", "/usr/bin", "/home/linuxbrew/.linuxbrew/bin", "/opt/homebrew/bin"]
        var seen: Set<String> = []
        return folders.filter { seen.insert($0).inserted }
    }

    /// `prefix=` in ~/.npmrc (`~/` expanded): where `npm install -g` puts programs.
    static func npmrcPrefix(home: String) -> String? {
        guard let text = RegularFile.text(home + "/.npmrc", limit: FileLimit.systemFile) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
            guard parts.count == 2, parts[0] == "prefix", !parts[1].isEmpty else { continue }
            return parts[1].hasPrefix("~/") ? home + parts[1].dropFirst() : parts[1]
        }
        return nil
    }

    /// Each version nvm installed, newest name first (~/.nvm/versions/node/vX.Y.Z/bin).
    static func nvmFolders(home: String) -> [String] {
        let versions = home + "/.nvm/versions/node"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: versions)) ?? []
        return names.sorted(by: >).prefix(8).map { "\(versions)/\($0)/bin" }
    }

    /// The first `openclaw` program in `folders`, or nil.
    package static func find(in folders: [String]) -> String? {
        folders.lazy.map { $0 + "/openclaw" }.first { path in
            var status = stat()
            return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
        }
    }

    /// The program at `path`, to run as `user`; or why it is not run.
    package static func prepare(_ path: String, as user: GatewayUser, environment: [String: String]) -> Result<OpenClawCLI, Refusal> {
        let runAs = geteuid() == 0 ? user : GatewayUser(uid: geteuid())
        if let problem = ExecutableTrust.problem(path, runAs: runAs.uid) { return .failure(Refusal(why: problem)) }
        if runAs.uid != geteuid(), access(setpriv, X_OK) != 0 {
            return .failure(
                Refusal(why: "\(setpriv) (util-linux) is not installed, and root does not run it as \(Ownership.user(runAs.uid))"))
        }
        let home = runAs.uid == geteuid() ? environment["HOME"] ?? runAs.account?.home : runAs.account?.home
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        var lines = ["PATH=\(folder):/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "NO_COLOR=1", "FORCE_COLOR=0"]
        if let home { lines.append("HOME=\(home)") }
        if let name = runAs.account?.name { lines += ["USER=\(name)", "LOGNAME=\(name)"] }
        for name in ["OPENCLAW_STATE_DIR", "OPENCLAW_CONFIG_PATH", "OPENCLAW_PROFILE", "OPENCLAW_HOME"] {
            if let value = environment[name] { lines.append("\(name)=\(value)") }
        }
        return .success(OpenClawCLI(path: path, user: runAs, environment: lines))
    }

    package struct Refusal: Error, Sendable {
        package let why: String
    }

    /// One run, bounded in time and output; nil when it could not start.
    package func run(_ arguments: [String], limit: Int, timeout: Duration) -> SystemTool.Run? {
        guard user.uid != geteuid() else {
            return SystemTool.run(path, arguments, environment: environment, limit: limit, timeout: timeout)
        }
        let groups = user.account == nil ? "--clear-groups" : "--init-groups"
        let drop = ["--reuid=\(user.uid)", "--regid=\(user.account?.gid ?? user.uid)", groups, "--", path]
        return SystemTool.run(Self.setpriv, drop + arguments, environment: environment, limit: limit, timeout: timeout)
    }
}
