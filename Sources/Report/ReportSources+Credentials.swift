import DNSSD
import FoundationEssentials
import Glibc
import Host

extension ReportSources {
    /// Credential files read for their secrets, at most.
    static let credentialFilesRead = 256
    /// Entries of credential folders looked at, at most, and how deep.
    static let credentialEntriesSeen = 4096
    static let credentialDepth = 6

    /// OpenClaw's credential stores beside its config, never archived, every string in them a
    /// secret to scrub: each agent's `agents/<id>/agent/auth-profiles.json` and the older `auth.json`
    /// (API keys and tokens: openclaw/openclaw src/agents/auth-profiles/paths.ts resolveAuthStorePath,
    /// path-constants.ts) and every JSON file under `credentials/`
    /// (or OPENCLAW_OAUTH_DIR: src/config/paths.ts resolveOAuthDir), such as oauth.json and
    /// credentials/whatsapp/<account>/creds.json. Only files of the Gateway's user or root count,
    /// as the config's do; symbolic links to folders are not followed.
    mutating func credentialStores(folder: String, environment: [String: String]) {
        var paths = Self.entries(of: folder + "/agents").flatMap { agent in
            ["auth-profiles.json", "auth.json"].map { "\(folder)/agents/\(agent)/agent/\($0)" }
        }
        let oauthFolder = environment["OPENCLAW_OAUTH_DIR"].map { $0.trimmingSpaces() }.flatMap {
            $0.isEmpty ? nil : NodeStateDirectory.expandingHome($0, environment: environment)
        }
        var seen = 0
        Self.jsonFiles(under: oauthFolder ?? folder + "/credentials", depth: 0, seen: &seen, into: &paths)
        for path in paths.prefix(Self.credentialFilesRead) {
            switch Self.gatewayFile(path, user: gatewayUser) {
            case .success(nil): continue
            case .success(let bytes?): secrets.formUnion(Self.words(of: bytes))
            case .failure(let problem):
                omitted.append((path, problem.why))
                continue
            }
            omitted.append((path, "holds keys or credentials: searched for, never included"))
        }
        if paths.count > Self.credentialFilesRead {
            omitted.append((folder, "only the first \(Self.credentialFilesRead) of \(paths.count) credential files were read for secrets"))
        }
    }

    /// The names in a folder (none when it is not one, or is a link).
    static func entries(of folder: String) -> [String] {
        var status = stat()
        guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    static func jsonFiles(under folder: String, depth: Int, seen: inout Int, into paths: inout [String]) {
        guard depth <= credentialDepth else { return }
        for name in entries(of: folder) {
            seen += 1
            guard seen <= credentialEntriesSeen else { return }
            let path = "\(folder)/\(name)"
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: jsonFiles(under: path, depth: depth + 1, seen: &seen, into: &paths)
            case S_IFREG where name.hasSuffix(".json"): paths.append(path)
            default: continue
            }
        }
    }
}
