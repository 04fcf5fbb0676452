import Archive
import FoundationEssentials
import Host

/// The archive `clawnet report` writes: each file of this machine scrubbed of every known
/// secret, each file from the network as received (`ReportFile.Origin`), a manifest naming each
/// file and each redaction, in a gzip-compressed pax archive under one folder.
package struct ReportArchive: Sendable {
    package struct Manifest: Encodable, Sendable {
        package struct File: Encodable, Sendable {
            let name: String
            let bytes: Int
            /// `machine`: searched for every secret, each replaced; `network`: as received, never
            /// searched (a [REDACTED] there would confirm a stranger's guess). Never a count of hits.
            let origin: ReportFile.Origin
        }
        package struct Redaction: Encodable, Sendable {
            let file: String
            let redacted: [String]
            /// Settings OpenClaw documents as plain, shown as they are.
            let shown: [String]
        }
        /// `item`: a file's path, or the name of a part ("gateway journal"); not `path`, which the
        /// JSON of the other commands retired for a discovery path.
        package struct Omitted: Encodable, Sendable {
            let item: String
            let why: String
        }
        let schema = "clawnet.report-manifest.v2"
        let created: String
        /// Whose files and journal lines count (`GatewayUser`): `uid 1000 (alice)`.
        let gatewayUser: String
        var files: [File] = []
        var redactions: [Redaction] = []
        var omitted: [Omitted] = []
        /// Whether every secret of this machine was known, and so searched for; when not, why
        /// (`ReportSources.unsure`), and the files that could hold the others are left out.
        var complete = true
        var incomplete: [String] = []
        var note =
            "Every secret in a file of this machine is replaced by [REDACTED]; keys are kept. Files from the network are as "
            + "received and not searched for secrets. No option turns redaction off."
        static let incompleteNote =
            "Every secret found in this machine's files is replaced by [REDACTED], but not every secret could be found "
            + "(see incomplete): the Gateway's log and journal and OpenClaw's own reports, which could hold the others, "
            + "are left out. Files from the network are as received and not searched for secrets. No option turns redaction off."
    }

    /// The folder every file is in, inside the archive.
    package static let folder = "clawnet-report"

    /// `files` (name, content), each of this machine scrubbed of `sources`' secrets, plus manifest.json; gzip'd tar.
    package static func make(_ files: [ReportFile], sources: ReportSources, created: Date) throws -> [UInt8] {
        let scrubber = SecretScrubber(secrets: sources.secrets)
        var manifest = Manifest(created: created.formatted(.iso8601), gatewayUser: Ownership.user(sources.gatewayUser.uid))
        var tar = TarArchive()
        let seconds = Int64(created.timeIntervalSince1970)
        for file in files {
            // Key material goes by its shape from every file; known secrets only from this machine's.
            let clean = file.origin == .machine ? scrubber.scrub(file.content) : scrubber.withoutPrivateKeys(file.content)
            try tar.add("\(folder)/\(file.name)", clean, modified: seconds)
            manifest.files.append(.init(name: file.name, bytes: clean.count, origin: file.origin))
        }
        let shown = Dictionary(sources.shown.map { ($0.file, $0.what) }, uniquingKeysWith: +)
        manifest.redactions = sources.redactions.map { .init(file: $0.file, redacted: $0.what, shown: shown[$0.file] ?? []) }
        manifest.omitted = sources.omitted.map { .init(item: $0.path, why: $0.why) }
        if !sources.unsure.isEmpty {
            (manifest.complete, manifest.incomplete, manifest.note) = (false, sources.unsure, Manifest.incompleteNote)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // The manifest names paths and keys only; it is scrubbed like everything else.
        try tar.add("\(folder)/manifest.json", scrubber.scrub(Array(try encoder.encode(manifest))), modified: seconds)
        return try Gzip.compress(tar.finished)
    }
}
