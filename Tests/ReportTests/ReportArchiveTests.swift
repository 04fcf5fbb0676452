import Foundation
import Host
import TestSupport
import Testing

@testable import Archive
@testable import Report

/// The report's archive as `tar` reads it: names of any length (a 253-byte domain's zone file),
/// files of this machine scrubbed of every secret, files from the network left as received, and
/// a manifest that never counts what the scrub found.
@Suite("clawnet report: the archive")
struct ReportArchiveTests {
    /// The archive unpacked by GNU tar into a folder of its own: the files by name.
    static func unpacked(_ archive: [UInt8]) async throws -> [String: String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-archive-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: "\(folder).tar.gz")
        }
        try Data(archive).write(to: URL(fileURLWithPath: "\(folder).tar.gz"))
        let untar = try await runCommand("/usr/bin/tar", ["-xzf", "\(folder).tar.gz", "-C", folder])
        #expect(untar.status == 0, "tar reads the archive: \(untar.stderr)")
        let root = "\(folder)/\(ReportArchive.folder)"
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: root) {
            files[name] = try String(contentsOfFile: "\(root)/\(name)", encoding: .utf8)
        }
        return files
    }

    @Test("names longer than ustar's 100 bytes come out whole; a 254-byte domain's zone file keeps within a file name's 255")
    func longNames() async throws {
        let label = String(repeating: "a", count: 63)
        let longest = [label, label, label, String(repeating: "b", count: 61)].joined(separator: ".") + "."
        #expect(longest.utf8.count == 254, "the longest name DNS has, with its root dot")
        let long = [label, label, String(repeating: "c", count: 50)].joined(separator: ".") + "."
        let names = [
            ReportFile.zoneName(longest), ReportFile.zoneName(long), ReportFile.zoneName("openclaw.internal."),
            String(repeating: "x", count: 86), String(repeating: "y", count: 85),
        ]
        #expect(names[1] == "zone-\(long)txt" && names[2] == "zone-openclaw.internal.txt", "\(names)")
        #expect(names[0].hasPrefix("zone-\(label).") && names[0].utf8.count <= 255, "\(names[0])")
        #expect(ReportFile.zoneName("a/../b.") == "zone-a_.._b.txt", "no folder in a name")
        let files = names.map { ReportFile($0, text: "content of \($0.prefix(8))\n") }
        let archive = try ReportArchive.make(files, sources: ReportSources(), created: Date())
        let unpacked = try await Self.unpacked(archive)
        for name in names {
            #expect(unpacked[name] == "content of \(name.prefix(8))\n", "\(name.utf8.count + 15)-byte member: \(unpacked.keys.sorted())")
        }
        #expect(unpacked.count == names.count + 1, "and manifest.json: \(unpacked.keys.sorted())")
    }

    @Test("a pax record counts its own length, across a change in the number of its digits")
    func paxRecordLength() {
        for size in [1, 90, 93, 94, 95, 96, 97, 990, 995, 996, 997, 998] {
            let record = TarArchive.record("path", Array(String(repeating: "p", count: size).utf8))
            let length = Int(String(decoding: record.prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self))
            #expect(length == record.count, "value of \(size) bytes: \(String(decoding: record, as: UTF8.self).prefix(12))")
        }
    }

    @Test("a secret is scrubbed from a file of this machine and never from one of the network; the manifest says which was searched")
    func scrubByOrigin() async throws {
        var sources = ReportSources()
        let secret = "ZqGuessed-Token-1234"
        sources.secrets = [secret]
        let files = [
            ReportFile("gateway-journal.txt", text: "token=\(secret)\n"),
            ReportFile("browse.json", text: "{\"txt\":{\"note\":\"\(secret)\"}}\n", origin: .network),
            ReportFile("zone-x.txt", text: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", origin: .network),
        ]
        let unpacked = try await Self.unpacked(try ReportArchive.make(files, sources: sources, created: Date()))
        #expect(unpacked["gateway-journal.txt"] == "token=[REDACTED]\n")
        #expect(unpacked["browse.json"]?.contains("\"note\":\"\(secret)\"") == true, "a stranger's TXT is not turned into [REDACTED]")
        #expect(unpacked["zone-x.txt"] == "[REDACTED]\n", "key material goes by its shape, from every file")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data((unpacked["manifest.json"] ?? "").utf8)) as? [String: Any])
        #expect(manifest["schema"] as? String == "clawnet.report-manifest.v2")
        let entries = try #require(manifest["files"] as? [[String: Any]])
        let origins = Dictionary(
            uniqueKeysWithValues: entries.compactMap { e in (e["name"] as? String).map { ($0, e["origin"] as? String) } })
        #expect(origins == ["gateway-journal.txt": "machine", "browse.json": "network", "zone-x.txt": "network"], "\(origins)")
        #expect(entries.allSatisfy { $0["scrubbed"] == nil }, "no count of hits: \(entries)")
    }
}

extension ReportArchiveTests {
    @Test("when some secret may not be known, the manifest says redaction is not complete, and why")
    func incompleteManifest() async throws {
        var sources = ReportSources()
        sources.unsure = ["/x/openclaw.json does not parse and its secrets may not all be found: a bracket is never closed"]
        let unpacked = try await Self.unpacked(try ReportArchive.make([], sources: sources, created: Date()))
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data((unpacked["manifest.json"] ?? "").utf8)) as? [String: Any])
        #expect(manifest["complete"] as? Bool == false, "\(manifest)")
        #expect(manifest["incomplete"] as? [String] == sources.unsure, "\(manifest)")
        #expect((manifest["note"] as? String)?.contains("not every secret could be found") == true, "\(manifest)")
        let complete = try await Self.unpacked(try ReportArchive.make([], sources: ReportSources(), created: Date()))
        #expect(complete["manifest.json"]?.contains("\"complete\" : true") == true, "\(complete["manifest.json"] ?? "")")
    }
}
