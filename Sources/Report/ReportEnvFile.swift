import Host
/// The env file OpenClaw loads, for `clawnet report`: each variable as OpenClaw's dotenv reads it
/// (`DotEnv`), its value replaced by [REDACTED] whatever its name, except the settings OpenClaw
/// documents as plain (`PlainSettings`), shown as they are. Comments and lines that set nothing
/// are left out: a commented-out token is still a token.
struct ReportEnvFile {
    let text: String
    /// The keys whose values were replaced, and those shown, in the file's order.
    var redacted: [String] = []
    var shown: [String] = []
    /// The values replaced, to scrub from every other file (in every form: `SecretForms`).
    var secrets: Set<String> = []

    init(_ content: String) {
        var lines = [
            "# Every variable as OpenClaw's dotenv reads this file; each value [REDACTED] but the settings",
            "# OpenClaw documents as plain. Comments and lines that set nothing are left out.",
        ]
        for entry in DotEnv.parse(content) {
            if PlainSettings.isPlain(entry.key) {
                shown.append(entry.key)
                lines.append("\(entry.key)=\(Self.written(entry.value))")
            } else {
                redacted.append(entry.key)
                if !entry.value.isEmpty { secrets.insert(entry.value) }
                lines.append("\(entry.key)=\(ConfigRedaction.marker)")
            }
        }
        text = lines.joined(separator: "\n") + "\n"
    }

    /// A plain value on one line: as it is when it is printable ASCII without `#`, quotes or white
    /// space; else double-quoted and escaped as dotenv reads it back.
    static func written(_ value: String) -> String {
        let bare = value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && !"#\"'`\\".unicodeScalars.contains($0) }
        return bare ? value : "\"" + SecretForms.jsonEscaped(value, asciiOnly: true) + "\""
    }
}
