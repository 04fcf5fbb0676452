import Foundation
import Glibc
import Testing

@testable import Host

/// Files clawnet reads are regular files read up to a limit: a directory, a device, a FIFO
/// or a file that is too large is a clear error at once, never a spin, a hang or memory
/// without bound (`zone check` on a directory spun at 100% CPU, on /dev/zero grew 0.6 GB/s,
/// on a FIFO blocked forever).
@Suite("Reading files: only regular ones, up to a limit")
struct RegularFileTests {
    func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("regular-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    func failure(_ path: String, limit: Int = 1 << 20) -> RegularFile.Failure? {
        do {
            let bytes = try RegularFile.read(path, limit: limit)
            Issue.record("\(path) was read (\(bytes.count) bytes), but should not be")
            return nil
        } catch {
            return error
        }
    }

    @Test("a directory, /dev/zero, /dev/null and a FIFO are refused by kind, before any read")
    func notRegular() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [
            (directory, "a directory"), ("/dev/zero", "a character device"), ("/dev/null", "a character device"),
            (fifo, "a FIFO"),
        ] {
            let error = failure(path)
            #expect(error?.kind == .notRegular, "\(path): \(String(describing: error))")
            #expect(error?.description.contains(kind) == true, "\(path): \(String(describing: error))")
        }
    }

    @Test("missing, too large, and a regular file read exactly")
    func limits() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(failure(directory + "/none")?.kind == .missing)
        #expect(failure(directory + "/none")?.description.contains("no such file") == true)
        #expect(try RegularFile.readIfPresent(directory + "/none", limit: 10) == nil)
        let path = directory + "/file"
        let bytes = (0..<1000).map { UInt8($0 % 256) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try RegularFile.read(path, limit: 1000) == bytes)
        let large = failure(path, limit: 999)
        #expect(large?.kind == .tooLarge && large?.description.contains("larger than 999 bytes") == true, "\(String(describing: large))")
        // Through a symbolic link, the file it points to.
        #expect(symlink(path, directory + "/link") == 0)
        #expect(try RegularFile.read(directory + "/link", limit: 1000) == bytes)
    }

    /// A FIFO at the default path or a directory is refused; a FIFO --config names is read, and
    /// one nobody writes to is named at once.
    @Test("the OpenClaw config as a FIFO or a directory: a warning, defaults, never a hang")
    func configNotRegular() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/.openclaw", withIntermediateDirectories: true)
        let fifo = directory + "/.openclaw/openclaw.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        let byDefault = OpenClawConfig.load(environment: ["HOME": directory])
        #expect(!byDefault.exists && byDefault.warnings.contains { $0.contains("not a regular file") }, "\(byDefault.warnings)")
        let folder = OpenClawConfig.load(explicitPath: directory, environment: [:])
        #expect(!folder.exists && folder.warnings.contains { $0.contains("not a regular file") }, "\(folder.warnings)")
        let named = OpenClawConfig.load(explicitPath: fifo, environment: [:])
        #expect(!named.exists && named.warnings.contains { $0.contains("no one writes to") }, "\(named.warnings)")
    }
}
