import Foundation
import Glibc
import Host
import Testing

/// clawnet runs as root: it replaces only regular files this user owns (or makes new ones),
/// and reads nothing that could block or never end.
@Suite("Atomic files: only regular files this user owns are replaced")
struct AtomicFileTests {
    func scratch() throws -> String {
        let directory = NSTemporaryDirectory() + "atomic-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Why writing `path` was refused, or nil when it was written.
    func refusal(_ path: String) -> String? {
        do {
            try AtomicFile.write("x", to: path)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a new file and a regular file are written; the content is replaced whole")
    func regular() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try AtomicFile.write("one\n", to: "\(directory)/zone.db")
        try AtomicFile.write("two\n", to: "\(directory)/zone.db")
        #expect(try AtomicFile.read("\(directory)/zone.db", limit: 1024) == "two\n")
    }

    @Test("a FIFO, a folder and a dangling symbolic link are refused and left as they are; reading a FIFO does not block")
    func refused() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = "\(directory)/fifo"
        let link = "\(directory)/link"
        let folder = "\(directory)/folder"
        #expect(mkfifo(fifo, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "\(directory)/elsewhere")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)

        #expect(throws: (any Error).self) { try AtomicFile.read(fifo, limit: 1024) }
        for (path, expected) in [(fifo, "FIFO"), (link, "does not exist"), (folder, "folder")] {
            let why = refusal(path)
            #expect(why?.contains(expected) == true, "\(path): \(why ?? "written")")
        }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/elsewhere"))
    }

    @Test("another user's file is left alone", .enabled(if: geteuid() == 0))
    func otherOwner() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/theirs.db"
        try "keep\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chown(path, 65534, 65534) == 0)
        let why = refusal(path)
        #expect(why?.contains("belongs to uid 65534") == true, "\(why ?? "written")")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep\n")
    }

    @Test("/dev/zero is refused at once instead of read forever")
    func zero() {
        #expect(throws: (any Error).self) { try AtomicFile.read("/dev/zero", limit: 1024) }
    }

    /// A device node of its own in a scratch folder (a copy of /dev/null's numbers), so a bug
    /// here could never replace the machine's /dev/null.
    @Test("a device node is never replaced", .enabled(if: geteuid() == 0))
    func device() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let node = "\(directory)/null"
        #expect(mknod(node, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
        let why = refusal(node)
        #expect(why?.contains("regular") == true, "\(why ?? "written")")
        var info = stat()
        #expect(lstat(node, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }
}
