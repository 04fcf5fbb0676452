import FoundationEssentials
import Host

extension ReportSources {
    /// The OpenClaw config as OpenClaw reads it: its `$include`s merged (`ConfigIncludes`), the
    /// last of a key given twice; redacted as a whole, so that a secret of an included file is
    /// judged by where it lands. Included files are read only when they are the Gateway's user's
    /// or root's, as the config is. The earlier value of a key given twice is not in the archive,
    /// but its secrets are searched for like the rest.
    mutating func config(_ configPath: String) {
        // A --config pipe was read once already (for doctor): readInput gives what it held again.
        let piped = RegularFile.isStream(configPath) ? (try? RegularFile.readInput(configPath, limit: FileLimit.config))?.bytes : nil
        guard let bytes = piped ?? gatewayFile(configPath) else { return }
        let shadowed = ShadowedValues()
        guard ConfigRedaction.isUTF8(bytes), let parsed = try? JSONValue.parse(json5: Data(bytes), shadowed: shadowed),
            case .object = parsed
        else {
            omitted.append((configPath, "not a JSON5 object: left out whole; the values under its secrets' keys are searched for"))
            unparsed(bytes, path: configPath)
            return
        }
        let user = gatewayUser
        let path = configPath.hasPrefix("/") ? configPath : FileManager.default.currentDirectoryPath + "/" + configPath
        var includes = ConfigIncludes(config: path) { included in
            Self.gatewayFile(included, user: user).flatMap { $0.map { .success($0) } ?? .failure(.init(why: "missing")) }
        }
        let root = includes.resolve(parsed, from: path)
        for file in includes.files { omitted.append((file, "included by the config: merged into openclaw.json, redacted")) }
        omitted += includes.problems
        for (file, bytes) in includes.unparsed {
            omitted.append((file, "not JSON5: the values under its secrets' keys are searched for"))
            unparsed(bytes, path: "a file the config includes")
        }
        secrets.formUnion(ConfigRedaction.secrets(of: shadowed.values))
        // Where an included file's values land is not known here: each of them counts as a secret.
        secrets.formUnion(ConfigRedaction.secrets(of: includes.shadowed.values, place: .secret))
        guard let redaction = ConfigRedaction(root: root) else {
            // An include made the whole config something else than an object: OpenClaw refuses it.
            omitted.append((configPath, "not an object once its includes are merged: left out whole"))
            var found: [String] = []
            Self.collect(root, into: &found)
            secrets.formUnion(ConfigLexicalSecrets(bytes).values.filter(SecretScrubber.searches))
            secrets.formUnion(found.filter(SecretScrubber.searches))
            return
        }
        files.append(ReportFile("openclaw.json", text: redaction.text))
        redactions.append(("openclaw.json", redaction.redactedPaths))
        if !redaction.shownPaths.isEmpty { shown.append(("openclaw.json", redaction.shownPaths)) }
        secrets.formUnion(redaction.secrets)
    }

    /// A config (or an included file) that does not parse: the values under its secrets' keys
    /// (`ConfigLexicalSecrets`). When the pass cannot be sure it found them all, every value in
    /// it (and every word of its strings, what a missing quote leaves) is searched for too, and
    /// OpenClaw's own output, which could hold the others, is left out (`unsure`). Keys are not:
    /// they name settings, and would blank out the words of every other file.
    mutating func unparsed(_ bytes: [UInt8], path: String) {
        let lexical = ConfigLexicalSecrets(bytes)
        secrets.formUnion(lexical.secrets)
        guard let doubt = lexical.doubt else { return }
        secrets.formUnion(lexical.values.filter(SecretScrubber.searches))
        unsure.append("\(path) does not parse and its secrets may not all be found: \(doubt)")
    }
}
