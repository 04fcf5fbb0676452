import FoundationEssentials
import Host

extension ReportSources {
    /// The OpenClaw config as OpenClaw reads it: its `$include`s merged (`ConfigIncludes`), the
    /// last of a key given twice; redacted as a whole, so that a secret of an included file is
    /// judged by where it lands. Included files are read only when they are the Gateway's user's
    /// or root's, as the config is.
    mutating func config(_ configPath: String) {
        // A --config pipe was read once already (for doctor): readInput gives what it held again.
        let piped = RegularFile.isStream(configPath) ? (try? RegularFile.readInput(configPath, limit: FileLimit.config))?.bytes : nil
        guard let bytes = piped ?? gatewayFile(configPath) else { return }
        guard ConfigRedaction.isUTF8(bytes), let parsed = try? JSONValue.parse(json5: Data(bytes)), case .object = parsed else {
            omitted.append((configPath, "not a JSON5 object: left out whole, since its secrets cannot be found"))
            secrets.formUnion(Self.words(of: bytes))
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
            omitted.append((file, "not JSON5: every word of it is scrubbed as a secret"))
            secrets.formUnion(Self.words(of: bytes))
        }
        guard let redaction = ConfigRedaction(root: root) else {
            // An include made the whole config something else than an object: OpenClaw refuses it.
            omitted.append((configPath, "not an object once its includes are merged: left out whole"))
            var found: [String] = []
            Self.collect(root, into: &found)
            secrets.formUnion(Self.words(of: bytes))
            secrets.formUnion(found.filter(SecretScrubber.searches))
            return
        }
        files.append(ReportFile("openclaw.json", text: redaction.text))
        redactions.append(("openclaw.json", redaction.redactedPaths))
        if !redaction.shownPaths.isEmpty { shown.append(("openclaw.json", redaction.shownPaths)) }
        secrets.formUnion(redaction.secrets)
    }
}
