import Foundation
import Glibc
import TestSupport
import Testing

@testable import Host
@testable import Report

/// Who may change a program the report runs as root or as the Gateway's user: nobody else.
@Suite("clawnet report: the openclaw CLI is run only when nobody else can change it")
struct ExecutableTrustTests {
    let scratchFolder = ScratchFolder("trust")

    func program() throws -> (folder: String, path: String) {
        let folder = try scratchFolder.make()
        try FileManager.default.createDirectory(atPath: "\(folder)/bin", withIntermediateDirectories: true)
        let path = "\(folder)/bin/openclaw"
        try Data("#!/bin/sh\necho 1\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o755) == 0 && chmod(folder, 0o755) == 0 && chmod("\(folder)/bin", 0o755) == 0)
        return (folder, path)
    }

    @Test("a program of this user in folders of this user or root (/tmp is sticky): run")
    func trusted() throws {
        let (_, path) = try program()
        #expect(ExecutableTrust.problem(path, runAs: geteuid()) == nil)
    }

    @Test("a folder on the way that group or others can write, without the sticky bit: refused, named")
    func writableFolder() throws {
        let (folder, path) = try program()
        #expect(chmod("\(folder)/bin", 0o777) == 0)
        let problem = ExecutableTrust.problem(path, runAs: geteuid()) ?? ""
        #expect(problem.contains("\(folder)/bin is writable by group or others (mode 0777)"), "\(problem)")
    }

    @Test(
        "a program, or a link to it, of another user: refused as root, and as any user it does not belong to",
        .enabled(if: getuid() == 0, "giving files away needs root"))
    func anotherUsers() throws {
        let (folder, path) = try program()
        #expect(chown(path, 65_534, 65_534) == 0)
        #expect(ExecutableTrust.problem(path, runAs: 0)?.contains("belongs to uid 65534") == true)
        #expect(ExecutableTrust.problem(path, runAs: 65_534) == nil, "it is that user's own: run as them")
        #expect(chown(path, 0, 0) == 0 && symlink(path, "\(folder)/link") == 0 && lchown("\(folder)/link", 65_534, 65_534) == 0)
        #expect(ExecutableTrust.problem("\(folder)/link", runAs: 0)?.contains("\(folder)/link belongs to uid 65534") == true)
    }
}
