import DNSSD
import FoundationEssentials
import Glibc

/// What clawnet reads from OpenClaw's own configuration (`~/.openclaw/openclaw.json`, JSON5)
/// and environment. Every field is optional; a malformed file or field gives a warning that
/// names the file and the problem, never a failure.
public struct OpenClawConfig: Sendable, Equatable {
    package var path: String
    public var exists = false
    /// `discovery.wideArea.domain`, or OPENCLAW_WIDE_AREA_DOMAIN when the file has none.
    package var wideAreaDomain: DomainName?
    /// `gateway.port`.
    package var gatewayPort: Int?
    /// `gateway.tls.enabled`.
    package var tlsEnabled: Bool?
    /// `gateway.bind`: loopback (the default), lan, tailnet, auto or custom.
    package var bind: GatewayBind?
    /// `gateway.mode`, `gateway.remote.*` and the token a node sends (OpenClawConfig+Node.swift).
    package var node = NodeSettings()
    /// What decides whether this machine's Gateway advertises by mDNS (OpenClawConfig+Advertising.swift).
    package var advertising = AdvertisingSettings()
    /// gateway.tailscale.mode and gateway.auth.allowTailscale (OpenClawConfig+Tailscale.swift).
    package var tailscale = TailscaleSettings()
    package var warnings: [String] = []
    /// Why none of the file's settings could be used, when they could not (its words are the
    /// first of `warnings`): a command says so wherever it stops, a usage error included.
    package var unusable: Unusable?
    /// The file's owner and permission bits, when it was read.
    package var fileOwner: UInt32?
    package var fileMode: UInt32?
    /// The files its `$include`s merged in, in order (`ConfigIncludes`), and why one whose owner
    /// or mode lets another user steer the config may not (the first such).
    package var includedFiles: [String] = []
    var includedFileProblem: ForeignFile?

    /// A file whose owner or mode lets another user steer the config, and why.
    struct ForeignFile: Sendable, Equatable {
        let path: String
        let problem: String
    }

    package init(path: String) {
        self.path = path
    }

    /// The config OpenClaw reads in `environment` (openclaw/openclaw src/config/paths.ts
    /// resolveConfigPath): OPENCLAW_CONFIG_PATH, else `openclaw.json` in the state folder
    /// (OPENCLAW_STATE_DIR, a profile's `~/.openclaw-<profile>`, else `~/.openclaw`: `NodeStateDirectory`).
    package static func defaultPath(environment: [String: String]) -> String {
        if let path = environment["OPENCLAW_CONFIG_PATH"]?.trimmingSpaces(), !path.isEmpty {
            return NodeStateDirectory.expandingHome(path, environment: environment, home: "/root") ?? path
        }
        return (NodeStateDirectory.path(environment: environment, home: "/root") ?? "/root/.openclaw") + "/openclaw.json"
    }

    /// `explicitPath` comes from --config: then a missing file is worth a warning.
    package static func load(explicitPath: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> OpenClawConfig
    {
        let path = explicitPath ?? defaultPath(environment: environment)
        var config = OpenClawConfig(path: path)
        // Only a regular file of config size is read: a FIFO or /dev/zero there is a warning, not a
        // hang; unless --config named it (`-`, `<(...)`): that pipe is read, once, to its end.
        do {
            if let explicitPath, RegularFile.isStream(explicitPath) {
                // A pipe has no mode others could read it by: only its owner (whoever made it) counts.
                let piped = try RegularFile.readInput(explicitPath, limit: FileLimit.config)
                config.exists = true
                config.read(Data(piped.bytes), includes: Self.protectedIncludes)
                config.noteFile(owner: piped.owner, mode: S_IRUSR | S_IWUSR)
            } else {
                // Owner and mode from the file that was read, never a second look at the path: another
                // user could swap the file in between and have root trust theirs.
                let file = try RegularFile.readProtected(path, limit: FileLimit.config)
                config.exists = true
                config.read(Data(file.bytes), includes: Self.protectedIncludes)
                config.noteFile(owner: file.owner, mode: file.mode)
            }
        } catch  where error.kind == .missing {
            if explicitPath != nil { config.fail(.unreadable, "\(path): cannot read the file (missing or not readable); using defaults") }
        } catch {
            config.fail(.unreadable, "\(error.description); using defaults")
        }
        config.readEnvironment(environment)
        config.withholdForeignCredentials()
        if config.wideAreaDomain == nil, let domain = environment["OPENCLAW_WIDE_AREA_DOMAIN"], !domain.trimmingSpaces().isEmpty {
            do { config.wideAreaDomain = try DomainName(validating: domain) } catch {
                config.warnings.append("OPENCLAW_WIDE_AREA_DOMAIN '\(domain)': \(error.message)")
            }
        }
        return config
    }

    /// Why a config's settings could not be used at all.
    package struct Unusable: Sendable, Equatable {
        package enum Kind: Sendable, Equatable {
            /// Missing (when --config named it), not a regular file, too large, or not readable.
            case unreadable
            case notUTF8, notJSON5, notObject
        }

        package let kind: Kind
        /// What went wrong, naming the file.
        package let message: String
    }

    mutating func fail(_ kind: Unusable.Kind, _ message: String) {
        unusable = Unusable(kind: kind, message: message)
        warnings.append(message)
    }

    /// Who owns the file (a token in it goes to a local listener only when that user or root
    /// runs it) and its mode.
    mutating func noteFile(owner: uid_t, mode: mode_t) {
        (fileOwner, fileMode) = (owner, UInt32(mode) & 0o7777)
        node.remoteToken?.owner = owner
        node.authToken?.owner = owner
    }

    /// A config another user wrote, or can change, names where a token goes (gateway.remote.url)
    /// and which one (a SecretRef to this user's environment): running as root, clawnet would
    /// send root's token where that user says. Its tokens, and OPENCLAW_GATEWAY_TOKEN with it,
    /// are withheld, with a warning naming the file and its owner.
    mutating func withholdForeignCredentials() {
        guard let token = node.token else { return }
        let own = fileOwner.flatMap { owner in
            fileMode.flatMap { Ownership.fileProblem(path, owner: owner, mode: mode_t($0), rootToo: true) }.map {
                ForeignFile(path: path, problem: $0)
            }
        }
        // A file it includes steers the config as much as the config itself.
        guard let foreign = own ?? includedFileProblem else { return }
        let (file, problem) = (foreign.path, foreign.problem)
        node.untrustedConfig = problem
        warnings.append(
            "\(problem): the token it names or resolves (\(token.source)) is sent nowhere; `chown` it to this user or root "
                + "and `chmod go-w \(ShellWord.quoted(file))` to use it")
    }

    /// A config that holds a token itself (not a reference) and that others may read.
    package var secretFileWarning: SecretFileWarning? {
        guard let fileMode, node.tokenInFile else { return nil }
        return SecretFileWarning(path: path, mode: fileMode, kind: .config)
    }

    /// The config a file's bytes give, as `load` reads them (without the environment): the
    /// entry point for tests and fuzzing.
    public static func parse(_ data: Data, path: String) -> OpenClawConfig {
        var config = OpenClawConfig(path: path)
        config.exists = true
        config.read(data)
        return config
    }

    /// `data`, the config's own bytes; `includes` reads the files its `$include`s name (nil:
    /// they are not followed, as `parse` does).
    mutating func read(_ data: Data, includes: IncludeReader? = nil) {
        // Foundation's JSON5 scanner traps on bytes that are not UTF-8: check them first.
        if let problem = Self.utf8Problem(data) {
            fail(.notUTF8, "\(path): not valid JSON5 (\(problem)); its settings are ignored")
            return
        }
        var root: JSONValue
        do {
            root = try JSONValue.parse(json5: data)
        } catch {
            fail(.notJSON5, "\(path): not valid JSON5 (\(Self.describe(error))); its settings are ignored")
            return
        }
        guard case .object = root else {
            fail(.notObject, "\(path): the top level is not an object; its settings are ignored")
            return
        }
        if let includes { root = merging(root, includes) }
        guard case .object = root else {
            fail(.notObject, "\(path): not an object once its $include files are merged; its settings are ignored")
            return
        }
        if let value = root["discovery", "wideArea", "domain"] {
            if case .string(let text) = value, !text.trimmingSpaces().isEmpty {
                do { wideAreaDomain = try DomainName(validating: text) } catch {
                    warnings.append("\(path): discovery.wideArea.domain '\(text)': \(error.message)")
                }
            } else if value != .null {
                warnings.append("\(path): discovery.wideArea.domain should be a domain name in quotes")
            }
        }
        if let value = root["gateway", "port"] {
            if case .number(let number) = value, number == number.rounded(), (1...65535).contains(number) {
                gatewayPort = Int(number)
            } else {
                warnings.append("\(path): gateway.port should be a number from 1 to 65535; using \(Endpoint.defaultGatewayPort)")
            }
        }
        if let value = root["gateway", "tls", "enabled"] {
            if case .bool(let flag) = value {
                tlsEnabled = flag
            } else {
                warnings.append("\(path): gateway.tls.enabled should be true or false")
            }
        }
        if let value = root["gateway", "bind"] {
            if case .string(let mode) = value {
                bind = GatewayBind(word: mode)
            } else {
                warnings.append("\(path): gateway.bind should be a string (loopback, lan, tailnet, auto, custom)")
            }
        }
        readNode(root)
        readAdvertising(root)
        readTailscale(root)
    }

    /// Where the bytes stop being UTF-8, or nil when they are.
    static func utf8Problem(_ data: Data) -> String? {
        var decoder = UTF8()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return "byte \(offset) is not UTF-8 (0x\(String(data[data.startIndex + offset], radix: 16, uppercase: true)))"
            }
        }
    }

    private static func describe(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as? CustomStringConvertible)?.description
            return underlying ?? context.debugDescription
        }
        return "\(error)"
    }
}
