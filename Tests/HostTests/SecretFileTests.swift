import Foundation
import Glibc
import Testing

@testable import Host

/// Files that hold secrets: a warning when group or others may read them (as ssh says it),
/// folders for keys made 0700. (That the mode holds under umask 000 is tested on the binary,
/// in a process of its own: the umask belongs to the whole process.)
@Suite("Secret files: permissions")
struct SecretFileTests {
    @Test(
        "group or other bits give a warning that names the file, the mode and `chmod 600`; owner-only modes none",
        arguments: [
            (UInt32(0o100600), nil), (0o100400, nil), (0o100700, nil), (0o100644, "readable"), (0o100640, "readable"),
            (0o100604, "readable"), (0o100620, "accessible"), (0o100660, "readable"), (0o100666, "readable"),
        ])
    func warning(mode: UInt32, expected: String?) {
        let warning = SecretFileWarning(path: "/etc/clawnet/token", mode: mode, kind: .token)
        guard let expected else {
            #expect(warning == nil, "mode \(String(mode, radix: 8)): \(String(describing: warning))")
            return
        }
        let text = warning?.description ?? ""
        #expect(text.contains("/etc/clawnet/token holds a Gateway token and is \(expected) by group or others"), "\(text)")
        #expect(text.contains("(mode 0\(String(mode & 0o7777, radix: 8)))") && text.hasSuffix("`chmod 600 /etc/clawnet/token`"), "\(text)")
    }

    @Test("a real file: 0644 warns, 0600 does not, a missing one says nothing; the owner is the file's")
    func realFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)").path
        try "token\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        chmod(path, 0o644)
        #expect(SecretFile.warning(path: path, kind: .tsigKey)?.mode == 0o644)
        chmod(path, 0o600)
        #expect(SecretFile.warning(path: path, kind: .tsigKey) == nil)
        #expect(SecretFile.warning(path: path + ".missing", kind: .tsigKey) == nil)
        let read = try RegularFile.readProtected(path, limit: 1024)
        #expect(read.owner == geteuid() && read.mode == 0o600 && read.bytes == Array("token\n".utf8))
    }

    @Test("folders for keys: every one made is 0700 (the missing parents too); an existing one is left alone")
    func directories() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        try SecretFile.makeDirectory("\(base)/a/tls")
        for path in [base, "\(base)/a", "\(base)/a/tls"] {
            var status = stat()
            #expect(stat(path, &status) == 0 && status.st_mode & 0o7777 == 0o700, "\(path): \(String(status.st_mode & 0o7777, radix: 8))")
        }
        chmod(base, 0o755)
        try SecretFile.makeDirectory("\(base)/a/tls")
        var status = stat()
        #expect(stat(base, &status) == 0 && status.st_mode & 0o7777 == 0o755)
        try "x".write(toFile: "\(base)/file", atomically: true, encoding: .utf8)
        #expect(throws: SecretFile.Failure.self) { try SecretFile.makeDirectory("\(base)/file") }
    }
}
