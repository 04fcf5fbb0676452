import DNSSD
import FoundationEssentials
import Host

/// The OpenClaw config with every secret replaced, keys kept: for `clawnet report`, whose
/// archive a user attaches to a public issue. A value is a secret when its key path looks like
/// one (OpenClaw's own patterns, widened), when it is the `id` of a SecretRef, when it sits
/// inside an object that is a secret as a whole (a service account), or when it holds a PEM
/// block anywhere; and, whatever its name, every value of an env map (`Place`): the config's
/// `env` block and every other `env` object (skills.entries.*.env, sandbox.docker.env,
/// cliBackends.*.env, secrets.providers.*.env, ...), except the settings OpenClaw documents as
/// plain (`PlainSettings`), which are shown. `${VAR}` placeholders are kept: they name a
/// variable, not its value.
/// Follows openclaw/openclaw src/config/redact-snapshot.ts (redactObjectGuessing, SecretRef
/// ids, env placeholders) and src/config/sensitive-paths.ts (SENSITIVE_PATTERNS and the
/// whitelist of counters such as maxTokens).
package struct ConfigRedaction: Sendable {
    /// What stands in for every secret.
    package static let marker = "[REDACTED]"

    /// The redacted config, as JSON (JSON5 comments are not kept).
    package let text: String
    /// The dotted path of every value replaced.
    package let redactedPaths: [String]
    /// The values replaced, so that the same text is scrubbed from every other file.
    package let secrets: Set<String>
    /// The dotted path of every plain setting shown in an env map (`PlainSettings`).
    package let shownPaths: [String]

    /// nil when the bytes are not a JSON5 object: such a config is left out of the report
    /// whole (OpenClaw refuses to hand out an invalid config for the same reason).
    package init?(config data: [UInt8]) {
        guard !data.isEmpty, ConfigRedaction.isUTF8(data), let root = try? JSONValue.parse(json5: Data(data)) else { return nil }
        self.init(root: root)
    }

    /// The config already read (its `$include`s merged: `ConfigIncludes`); nil when it is not an object.
    init?(root: JSONValue) {
        guard case .object = root else { return nil }
        var walk = Walk()
        let redacted = walk.redact(root, path: "")
        guard let text = Self.json5(redacted) else { return nil }
        self.text = text
        redactedPaths = walk.paths
        secrets = walk.secrets
        shownPaths = walk.shown
    }

    static func isUTF8(_ data: [UInt8]) -> Bool { String(validating: data, as: UTF8.self) != nil }

    /// `value` as JSON, but for NaN, Infinity and -Infinity, which JSON5 (and OpenClaw's config)
    /// allows and JSON has no word for: they stay as JSON5 writes them. The encoder writes each
    /// as a quoted marker carrying a key drawn for this call, which no string of the config can
    /// hold, and only those become the bare words.
    static func json5(_ value: JSONValue) -> String? {
        let key = String(UInt64.random(in: .min ... .max), radix: 36)
        let words = ["NaN", "Infinity", "-Infinity"]
        let markers = words.map { "\u{F8FF}\(key)\($0)" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: markers[1], negativeInfinity: markers[2], nan: markers[0])
        guard let encoded = try? encoder.encode(value) else { return nil }
        var text = String(decoding: encoded, as: UTF8.self)
        for (marker, word) in zip(markers, words) { text = text.replacing("\"\(marker)\"", with: word) }
        return text + "\n"
    }

    /// OpenClaw's SENSITIVE_PATTERNS (token$, password, secret, api.?key, encrypt.?key,
    /// private.?key, serviceaccount) and more words that name credentials.
    static let sensitiveWords = [
        "token", "password", "passwd", "passphrase", "secret", "apikey", "api_key", "api-key", "encryptkey", "encryptionkey",
        "privatekey", "private_key", "serviceaccount", "credential", "cookie", "bearer", "authorization", "signingkey", "hmac",
        "clientkey", "accesskey", "sessionkey", "pem",
    ]
    /// Counters and settings whose names contain those words but hold no secret (OpenClaw's
    /// SENSITIVE_KEY_WHITELIST_SUFFIXES); only their numbers are kept, strings are still judged.
    static let counterSuffixes = [
        "maxtokens", "maxoutputtokens", "maxinputtokens", "maxcompletiontokens", "contexttokens", "totaltokens", "tokencount",
        "tokenlimit", "tokenbudget", "passwordfile", "tokenfile",
    ]

    /// Whether the last key of `path` names a secret.
    static func isSensitive(key: String) -> Bool {
        let lowered = key.lowercased()
        if counterSuffixes.contains(where: lowered.hasSuffix) { return false }
        // "key" alone, or ending in "key" (apiKey, sshKey, privateKey), is a key.
        return lowered == "key" || lowered.hasSuffix("key") || lowered.hasSuffix("keys")
            || sensitiveWords.contains(where: lowered.contains)
    }

    /// `${NAME}`: a reference to the environment, kept.
    static func isPlaceholder(_ value: String) -> Bool {
        let trimmed = value.trimmingSpaces()
        return trimmed.hasPrefix("${") && trimmed.hasSuffix("}") && !trimmed.dropFirst(2).dropLast().contains("}")
    }

    /// A PEM block (a private key, a certificate with its key) or an OpenSSH key anywhere in a value.
    static func holdsKeyMaterial(_ value: String) -> Bool {
        value.contains("-----BEGIN") || value.contains("PRIVATE KEY")
    }

    /// Where a value sits, which decides whether it is a secret whatever its own name.
    enum Place: Equatable {
        /// Judged by its key and its look.
        case ordinary
        /// Inside something that is a secret as a whole: every string.
        case secret
        /// The config's top-level `env`: variables inline, `vars`, and `shellEnv` (settings).
        /// Follows openclaw/openclaw src/config/config-env-vars.ts collectConfigRuntimeEnvVars.
        case envBlock
        /// A map of variable names to values (`env.vars`, any other `env` object): each value a
        /// secret, unless its name is a plain setting.
        case envMap
        /// A variable's value in an env map: a secret, a number too (OpenClaw sets it as its text).
        case envValue
        /// A plain setting's value: shown.
        case plain

        /// Where the value under `key` sits, in an object at this place (`atRoot`: the config itself).
        func child(_ key: String, atRoot: Bool) -> Place {
            switch self {
            case .secret, .envValue: .secret
            case .plain: .plain
            case .envBlock: key == "vars" ? .envMap : key == "shellEnv" ? .ordinary : Self.variable(key)
            case .envMap: Self.variable(key)
            case .ordinary:
                if key == "env" {
                    atRoot ? .envBlock : .envMap
                }
                // Header values are secrets (src/config/zod-schema.core.ts registers a provider's
                // `headers` as sensitive: Authorization, API keys).
                else if key == "headers" || ConfigRedaction.isSensitive(key: key) {
                    .secret
                } else {
                    .ordinary
                }
            }
        }

        static func variable(_ name: String) -> Place { PlainSettings.isPlain(name) ? .plain : .envValue }

        /// Whether every value here is a secret, whatever its name or look.
        var holdsSecrets: Bool { self == .secret || self == .envValue || self == .envBlock || self == .envMap }

        /// Where a value under these keys (from the config's top) sits.
        static func at(_ keys: [String]) -> Place {
            keys.enumerated().reduce(Place.ordinary) { place, key in place.child(key.element, atRoot: key.offset == 0) }
        }
    }

    /// The secrets of values the config holds but OpenClaw drops (the earlier of a key given
    /// twice: `ShadowedValues`), each judged where it sits; `place` instead, when given.
    static func secrets(of shadowed: [(keys: [String], value: JSONValue)], place: Place? = nil) -> Set<String> {
        var walk = Walk()
        for (keys, value) in shadowed {
            _ = walk.redact(value, path: keys.joined(separator: "."), place: place ?? .at(keys))
        }
        return walk.secrets
    }

    /// One walk over the tree: the redacted copy, the paths and values replaced.
    struct Walk {
        var paths: [String] = []
        var secrets: Set<String> = []
        var shown: [String] = []

        mutating func redact(_ value: JSONValue, path: String, place: Place = .ordinary) -> JSONValue {
            switch value {
            case .object(let fields):
                if Self.isSecretRef(fields) { return secretRef(fields, path: path) }
                var result: [String: JSONValue] = [:]
                for (key, field) in fields {
                    let child = path.isEmpty ? key : "\(path).\(key)"
                    result[key] = redact(field, path: child, place: place.child(key, atRoot: path.isEmpty))
                }
                return .object(result)
            case .array(let items):
                return .array(items.enumerated().map { redact($0.element, path: "\(path)[\($0.offset)]", place: place) })
            case .string(let text):
                if ConfigRedaction.isPlaceholder(text) { return value }
                switch place {
                case .plain:
                    shown.append(path)
                    return value
                case .secret, .envValue, .envBlock, .envMap: return replaced(text, path: path)
                case .ordinary:
                    return ConfigRedaction.holdsKeyMaterial(text) || Self.looksLikeToken(text) ? replaced(text, path: path) : value
                }
            // Every scalar where a secret sits, whatever its type: a number as OpenClaw writes it
            // into the environment or its log (`JavaScriptNumber`), so that it is searched for.
            case .number(let number):
                return place.holdsSecrets ? replaced(JavaScriptNumber.text(number), path: path) : value
            case .bool(let flag):
                return place.holdsSecrets ? replaced("\(flag)", path: path) : value
            case .null:
                return value
            }
        }

        mutating func replaced(_ text: String, path: String) -> JSONValue {
            paths.append(path)
            if !text.isEmpty { secrets.insert(text) }
            return .string(ConfigRedaction.marker)
        }

        /// OpenClaw's SecretRef: `{ source: "env" | "file" | "exec", provider?, id }`; the id is
        /// redacted, the structure kept.
        static func isSecretRef(_ fields: [String: JSONValue]) -> Bool {
            guard case .string(let source)? = fields["source"], ["env", "file", "exec"].contains(source),
                case .string? = fields["id"]
            else { return false }
            return Set(fields.keys).isSubset(of: ["source", "provider", "id"])
        }

        mutating func secretRef(_ fields: [String: JSONValue], path: String) -> JSONValue {
            var result = fields
            if case .string(let id)? = fields["id"], !ConfigRedaction.isPlaceholder(id) {
                result["id"] = replaced(id, path: "\(path).id")
            }
            return .object(result)
        }

        /// A value that is a credential by its look, wherever it is: a known token prefix, or a
        /// URL with a password (`user:pass@`) or a credential in its query.
        static func looksLikeToken(_ text: String) -> Bool {
            if let scheme = text.firstRange(of: "://") {
                let rest = text[scheme.upperBound...]
                let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
                if authority.contains("@") && authority.prefix(while: { $0 != "@" }).contains(":") { return true }
                let query = rest.drop { $0 != "?" }.lowercased()
                if ["token=", "key=", "secret=", "password=", "auth="].contains(where: query.contains) { return true }
            }
            let prefixes = ["sk-", "xoxb-", "xoxp-", "xapp-", "ghp_", "github_pat_", "glpat-", "AKIA", "AIza", "eyJ"]
            return text.count >= 16 && !text.contains(" ") && prefixes.contains(where: text.hasPrefix)
        }
    }
}
