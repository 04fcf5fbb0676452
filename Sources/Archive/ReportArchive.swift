import FoundationEssentials
import Host

/// The archive `clawnet report` writes: every file scrubbed of every known secret, a manifest
/// naming each file and each redaction, in a gzip-compressed ustar archive under one folder.
public struct ReportArchive: Sendable {
    public struct Manifest: Encodable, Sendable {
        public struct File: Encodable, Sendable {
            let name: String
            let bytes: Int
            /// Replacements made by the final scrub (known secrets found in this file).
            let scrubbed: Int
        }
        public struct Redaction: Encodable, Sendable {
            let file: String
            let redacted: [String]
        }
        /// `item`: a file's path, or the name of a part ("gateway journal"); not `path`, which the
        /// JSON of the other commands retired for a discovery path.
        public struct Omitted: Encodable, Sendable {
            let item: String
            let why: String
        }
        let schema = "clawnet.report-manifest.v1"
        let created: String
        var files: [File] = []
        var redactions: [Redaction] = []
        var omitted: [Omitted] = []
        let note = "Every secret is replaced by [REDACTED]; keys are kept. No option turns redaction off."
    }

    /// The folder every file is in, inside the archive.
    public static let folder = "clawnet-report"

    /// `files` (name, content), each scrubbed of `sources`' secrets, plus manifest.json; gzip'd tar.
    public static func make(_ files: [(name: String, content: [UInt8])], sources: ReportSources, created: Date) throws -> [UInt8] {
        let scrubber = SecretScrubber(secrets: sources.secrets)
        var manifest = Manifest(created: created.formatted(.iso8601))
        var tar = TarArchive()
        let seconds = Int64(created.timeIntervalSince1970)
        for (name, content) in files {
            let (clean, replaced) = scrubber.scrub(content)
            try tar.add("\(folder)/\(name)", clean, modified: seconds)
            manifest.files.append(.init(name: name, bytes: clean.count, scrubbed: replaced))
        }
        manifest.redactions = sources.redactions.map { .init(file: $0.file, redacted: $0.what) }
        manifest.omitted = sources.omitted.map { .init(item: $0.path, why: $0.why) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // The manifest names paths and keys only; it is scrubbed like everything else.
        let (manifestBytes, _) = scrubber.scrub(Array(try encoder.encode(manifest)))
        try tar.add("\(folder)/manifest.json", manifestBytes, modified: seconds)
        return try Gzip.compress(tar.finished)
    }
}
