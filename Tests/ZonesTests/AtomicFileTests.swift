import Foundation
import Glibc
import Testing

@testable import Zones

/// clawnet runs as root: it replaces only regular files it owns, and reads nothing that could
/// block or never end.
@Suite("Atomic files: only regular files are replaced")
struct AtomicFileTests {
    func scratch() throws -> String {
        let directory = NSTemporaryDirectory() + "atomic-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("a new file and a regular file are written; the content is replaced whole")
    func regular() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try AtomicFile.write("one\n", to: "\(directory)/zone.db")
        try AtomicFile.write("two\n", to: "\(directory)/zone.db")
        #expect(AtomicFile.read("\(directory)/zone.db") == "two\n")
    }

    @Test("a FIFO, a symbolic link and a folder are refused and left as they are; reading a FIFO does not block")
    func refused() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = "\(directory)/fifo"
        let link = "\(directory)/link"
        let folder = "\(directory)/folder"
        #expect(mkfifo(fifo, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "\(directory)/elsewhere")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)

        #expect(AtomicFile.read(fifo) == nil)
        for (path, expected) in [(fifo, "not a regular file"), (link, "symbolic link"), (folder, "folder")] {
            #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write("x", to: path) }
            #expect(
                AtomicFile.refusal(toReplace: path)?.contains(expected) == true, "\(path): \(AtomicFile.refusal(toReplace: path) ?? "nil")")
        }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/elsewhere"))
    }

    @Test("/dev/zero reads as nothing instead of forever")
    func device() {
        #expect(AtomicFile.read("/dev/zero") == nil)
        #expect(AtomicFile.refusal(toReplace: "/dev/null")?.contains("not a regular file") == true)
    }
}
