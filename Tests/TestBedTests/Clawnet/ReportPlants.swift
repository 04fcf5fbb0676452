import Foundation
import TestSupport
import Testing

/// What the report tests plant: an env file as people write them, the ways a Gateway's log
/// holds its values, and a journal made from entries by systemd-journal-remote.
extension ReportCommandTests {
    /// An env file with CR LF line ends, `export`, spaces around `=`, an inline comment, each kind
    /// of quote, a plain setting and a PEM key across lines; the values dotenv reads from it.
    static func plantEnvFile(tag: String) -> (text: String, secrets: [String: String]) {
        let secrets = [
            "env file export": "ZqEnvExport\(tag)Sx7", "env file quoted": "ZqEnv Quoted\(tag)Sx7",
            "env file single": "ZqEnv/Single+\(tag)&x=1", "env file SMTP_PASS": #"Zq"Smtp\Pass\#(tag)"#,
            "env file PEM line 1": "ZqPemLineOne\(tag)AAAA", "env file PEM line 2": "ZqPemLineTwo\(tag)BBBB",
        ]
        let text =
            [
                "# OpenClaw env", "# OLD_TOKEN=commented-out", "export OPENAI_API_KEY = \(secrets["env file export"]!)   # the key",
                "CUSTOM_THING=\"\(secrets["env file quoted"]!)\"", "STRIPE_KEY='\(secrets["env file single"]!)'",
                "SMTP_PASS='\(secrets["env file SMTP_PASS"]!)'", "OPENCLAW_LOG_LEVEL=debug", "TLS_KEY=\"-----BEGIN EC PRIVATE KEY-----",
                secrets["env file PEM line 1"]!, secrets["env file PEM line 2"]!, "-----END EC PRIVATE KEY-----\"",
            ].joined(separator: "\r\n") + "\r\n"
        return (text, secrets)
    }

    /// Journal entries of the Gateway's system unit that hold the env file's values as logs do:
    /// as they are, JSON-escaped, percent-encoded, one PEM line at a time.
    static func loggedForms(of secrets: [String: String], tag: String) -> [[String: String]] {
        let messages = [
            "smtp login \(tag) \(secrets["env file SMTP_PASS"]!)",
            "config {\"pass\":\"\(json(secrets["env file SMTP_PASS"]!))\",\"custom\":\"\(json(secrets["env file quoted"]!))\"}",
            "GET /hook?key=\(percent(secrets["env file single"]!))&q=\(percent(secrets["env file quoted"]!))",
            "key line \(secrets["env file PEM line 1"]!)", "key line \(secrets["env file PEM line 2"]!)",
            "using \(secrets["env file export"]!)",
        ]
        return messages.map { ["_SYSTEMD_UNIT": "openclaw-gateway.service", "_UID": "0", "MESSAGE": $0] }
    }

    /// The forms a log holds that `forms(of:)` does not: percent-encoded (encodeURIComponent's
    /// set, upper-case hex) and JSON-escaped, each where it differs from the secret.
    static func encodedForms(of secret: String) -> [(String, String)] {
        [("percent-encoded", percent(secret)), ("JSON-escaped", json(secret))].filter { $0.1 != secret }
    }

    static func percent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_.!~*'()"))) ?? text
    }

    /// The inside of the JSON string Foundation's serializer writes for `text`.
    static func json(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data()
        return String(String(decoding: data, as: UTF8.self).dropFirst(2).dropLast(2))
    }

    /// A journal folder holding `entries`, written by systemd-journal-remote from export format.
    static func journal(_ bed: TestBed, _ entries: [[String: String]]) async throws -> String {
        let journal = "\(bed.directory)/journal-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)
        try exportFormat(entries).write(toFile: "\(journal).export", atomically: true, encoding: .utf8)
        let made = try await runCommand("/lib/systemd/systemd-journal-remote", ["--output=\(journal)/remote.journal", "\(journal).export"])
        #expect(made.status == 0, "systemd-journal-remote: \(made.stderr)")
        return journal
    }
}
