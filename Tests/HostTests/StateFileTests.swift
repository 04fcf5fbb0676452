import Foundation
import Glibc
import Host
import Testing

/// Issue 18: state clawnet reads back and acts on (advertise's ledger) is trusted only when
/// this user alone could have written it; another's file is neither read nor removed.
@Suite("State files: read back only when this user alone could have written them", .enabled(if: geteuid() == 0))
struct StateFileTests {
    static let nobody: uid_t = 65534

    /// A folder (mode `folderMode`, owner `folderOwner`) holding `ledger.json` (mode
    /// `fileMode`, owner `fileOwner`); returns the file's path.
    func plant(folderMode: mode_t = 0o700, folderOwner: uid_t = 0, fileMode: mode_t = 0o600, fileOwner: uid_t = 0) throws -> String {
        let folder = NSTemporaryDirectory() + "state-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/ledger.json"
        try "{}\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, fileMode) == 0 && chown(path, fileOwner, fileOwner) == 0)
        #expect(chmod(folder, folderMode) == 0 && chown(folder, folderOwner, folderOwner) == 0)
        return path
    }

    func refusal(_ path: String) -> String? {
        do {
            _ = try StateFile.read(path, limit: 1024)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "another user's file, a file or folder others can write, another user's folder, a link: refused with the reason, and kept",
        arguments: [
            (0o700, 0, 0o600, StateFileTests.nobody, "belongs to uid 65534"),
            (0o700, 0, 0o666, 0, "writable by group or others"),
            (0o620, 0, 0o600, 0, "writable by group or others"),
            (0o777, 0, 0o600, 0, "writable by group or others"),
            (0o700, StateFileTests.nobody, 0o600, 0, "belongs to uid 65534"),
        ] as [(mode_t, uid_t, mode_t, uid_t, String)])
    func refused(folderMode: mode_t, folderOwner: uid_t, fileMode: mode_t, fileOwner: uid_t, reason: String) throws {
        let path = try plant(folderMode: folderMode, folderOwner: folderOwner, fileMode: fileMode, fileOwner: fileOwner)
        defer { try? FileManager.default.removeItem(atPath: String(path.dropLast("/ledger.json".count))) }
        let why = refusal(path)
        #expect(why?.contains(reason) == true, "\(why ?? "read")")
        #expect(throws: StateFile.Untrusted.self) { try StateFile.remove(path) }
        #expect(FileManager.default.fileExists(atPath: path), "another's file is never removed")
    }

    @Test("this user's file in its own folder, or in a sticky world-writable one, is read and removed; a link is not followed")
    func trusted() throws {
        for folderMode: mode_t in [0o700, 0o755, 0o1777] {
            let path = try plant(folderMode: folderMode)
            let folder = String(path.dropLast("/ledger.json".count))
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(try StateFile.read(path, limit: 1024) == Array("{}\n".utf8), "folder mode \(String(folderMode, radix: 8))")
            #expect(symlink(path, folder + "/link.json") == 0)
            #expect(refusal(folder + "/link.json")?.contains("symbolic link") == true)
            try StateFile.remove(path)
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(try StateFile.read(path, limit: 1024) == nil, "no file: nothing to read")
        }
    }

    @Test("the folder clawnet makes, or finds of its own, is 0700 whatever the umask; another user's folder is refused")
    func folder() throws {
        let base = NSTemporaryDirectory() + "state-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let old = umask(0)
        defer { umask(old) }
        try StateFile.makeFolder(base + "/made/clawnet")
        var status = stat()
        #expect(stat(base + "/made/clawnet", &status) == 0 && status.st_mode & 0o777 == 0o700)
        try FileManager.default.createDirectory(atPath: base + "/open", withIntermediateDirectories: true)
        #expect(chmod(base + "/open", 0o777) == 0)
        try StateFile.makeFolder(base + "/open")
        #expect(stat(base + "/open", &status) == 0 && status.st_mode & 0o777 == 0o700)
        try FileManager.default.createDirectory(atPath: base + "/theirs", withIntermediateDirectories: true)
        #expect(chown(base + "/theirs", Self.nobody, Self.nobody) == 0)
        #expect(throws: StateFile.Untrusted.self) { try StateFile.makeFolder(base + "/theirs") }
    }
}
