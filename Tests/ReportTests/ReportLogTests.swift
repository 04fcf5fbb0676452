import Foundation
import Glibc
import TestSupport
import Testing

@testable import Host
@testable import Report

/// The report's Gateway log: the end of the newest rolling log however large it is, never
/// through a symbolic link, and only when the folder's owner wrote it (the folder is in /tmp,
/// where anyone may make it); whatever is left out is named in the manifest.
@Suite("clawnet report: the Gateway's log")
struct ReportLogTests {
    let scratchFolder = ScratchFolder("report-log")

    func scratch() throws -> String {
        try scratchFolder.make()
    }

    @Test("a log larger than any read limit: its last bytes, read from the end, and the manifest says how much was left")
    func endOfLargeLog() throws {
        let folder = try scratch()
        let log = "\(folder)/openclaw-2026-11-26.log"
        // 20 MiB of filler (more than any whole-file read clawnet does), then the last line.
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 20 << 20)
        try Data(filler + Array("\nthe last line\n".utf8)).write(to: URL(fileURLWithPath: log))
        try Data("older\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/openclaw-2026-11-25.log"))
        var sources = ReportSources()
        sources.gatewayLog(folder: folder)
        let file = try #require(sources.files.first { $0.name == "gateway-log.txt" }, "no log in \(sources.files.map(\.name))")
        #expect(file.content.count == ReportSources.logTail, "the tail's size: \(file.content.count)")
        #expect(String(decoding: file.content.suffix(15), as: UTF8.self) == "\nthe last line\n")
        #expect(sources.omitted.contains { $0.path == log && $0.why.contains("last \(ReportSources.logTail) of") }, "\(sources.omitted)")
    }

    @Test("a symbolic link named like a log is not followed, and the manifest says why")
    func symbolicLinkRefused() throws {
        let folder = try scratch()
        let secret = "\(folder)/not-a-log"
        try Data("root's secret\n".utf8).write(to: URL(fileURLWithPath: secret))
        #expect(symlink(secret, "\(folder)/openclaw-2099-01-01.log") == 0)
        var sources = ReportSources()
        sources.gatewayLog(folder: folder)
        #expect(!sources.files.contains { $0.name == "gateway-log.txt" }, "the link's target must not be read")
        #expect(sources.omitted.contains { $0.why.contains("symbolic link") }, "\(sources.omitted)")
    }

    @Test("a log owned by someone other than the folder's owner is left out", .enabled(if: getuid() == 0, "giving a file away needs root"))
    func foreignOwnerRefused() throws {
        let folder = try scratch()
        let log = "\(folder)/openclaw-2026-11-26.log"
        try Data("planted\n".utf8).write(to: URL(fileURLWithPath: log))
        #expect(chown(log, 65_534, 65_534) == 0)
        var sources = ReportSources()
        sources.gatewayLog(folder: folder)
        #expect(!sources.files.contains { $0.name == "gateway-log.txt" })
        #expect(
            sources.omitted.contains { $0.path == "gateway log" && $0.why.contains("1 log there of other users") }, "\(sources.omitted)")
    }

    @Test(
        "a log folder another user made first is left out whole, their planted log unread",
        .enabled(if: getuid() == 0, "giving a folder away needs root"))
    func folderMadeByAnotherUser() throws {
        let folder = try scratch()
        let log = "\(folder)/openclaw-2026-11-26.log"
        try Data("planted guess ZqGuess42\n".utf8).write(to: URL(fileURLWithPath: log))
        #expect(chown(log, 65_534, 65_534) == 0 && chown(folder, 65_534, 65_534) == 0)
        var sources = ReportSources()
        sources.gatewayLog(folder: folder)
        #expect(!sources.files.contains { $0.name == "gateway-log.txt" }, "what another user wrote must not be scrubbed and archived")
        let why = sources.omitted.first { $0.path == folder }?.why ?? ""
        #expect(why.contains("belongs to uid 65534") && why.contains("not to the Gateway's user"), "\(sources.omitted)")
    }

    @Test(
        "a newer log of another user does not hide the Gateway's own, and the manifest counts it",
        .enabled(if: getuid() == 0, "giving a file away needs root"))
    func newerForeignLog() throws {
        let folder = try scratch()
        try Data("the gateway's own line\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/openclaw-2026-11-26.log"))
        let planted = "\(folder)/openclaw-2099-01-01.log"
        try Data("planted\n".utf8).write(to: URL(fileURLWithPath: planted))
        #expect(chown(planted, 65_534, 65_534) == 0)
        var sources = ReportSources()
        sources.gatewayLog(folder: folder)
        let file = try #require(sources.files.first { $0.name == "gateway-log.txt" }, "\(sources.omitted)")
        #expect(String(decoding: file.content, as: UTF8.self) == "the gateway's own line\n")
        #expect(sources.omitted.contains { $0.path == folder && $0.why.contains("1 newer log of other users") }, "\(sources.omitted)")
    }

    @Test("no log at all is named in the manifest")
    func absentLog() throws {
        var sources = ReportSources()
        sources.gatewayLog(folder: try scratch())
        #expect(sources.files.isEmpty)
        #expect(sources.omitted.first?.path == "gateway log", "\(sources.omitted)")
    }
}
