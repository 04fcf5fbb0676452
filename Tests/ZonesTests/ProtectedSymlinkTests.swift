import DNSSD
import Foundation
import Glibc
import Host
import Testing

@testable import Zones

/// Issue 18: root must not follow a link another user planted in a sticky, world-writable
/// directory (/tmp): clawnet applies the kernel's protected_symlinks rule itself, whatever
/// `fs.protected_symlinks` says (this machine has it at 0).
@Suite("Links another user planted in sticky directories are never followed", .enabled(if: geteuid() == 0))
struct ProtectedSymlinkTests {
    /// nobody's uid and gid on Debian.
    static let nobody: uid_t = 65534

    /// A scratch folder holding `sticky` (mode 1777, like /tmp) and `victim`, a file of root's.
    struct Scene {
        let root: String
        var sticky: String { root + "/sticky" }
        var victim: String { root + "/victim" }
        static let content = "root's own file\n"

        init() throws {
            root = try scratchDirectory()
            try FileManager.default.createDirectory(atPath: root + "/sticky", withIntermediateDirectories: false)
            #expect(chmod(root + "/sticky", 0o1777) == 0)
            try Self.content.write(toFile: root + "/victim", atomically: false, encoding: .utf8)
        }

        /// A link at `path` to `target`, owned by `owner` (lchown: the link itself).
        func plant(_ path: String, to target: String, owner: uid_t = ProtectedSymlinkTests.nobody) {
            #expect(symlink(target, path) == 0)
            #expect(lchown(path, owner, owner) == 0)
        }

        var victimUnchanged: Bool { (try? String(contentsOfFile: victim, encoding: .utf8)) == Self.content }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test("every writer refuses a link of nobody's in a sticky directory, with a message naming it; the victim is unchanged")
    func planted() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let link = scene.sticky + "/zone.db"
        scene.plant(link, to: scene.victim)
        let written = (try? AtomicFile.write("replaced\n", to: link)) != nil
        #expect(!written)
        do { try AtomicFile.write("replaced\n", to: link) } catch {
            #expect(error.description.contains("symbolic link of uid 65534"), "\(error.description)")
            #expect(error.description.contains("protected_symlinks"), "\(error.description)")
        }
        let problem = OutputFile.problem(link)
        #expect(problem?.contains("symbolic link of uid 65534") == true, "\(problem ?? "no problem found")")
        #expect(throws: AtomicFile.Failure.self) {
            try OutputFile.writeTogether([try OutputFile.Change(path: link, text: "replaced\n")])
        }
        let content = ZoneContent(domain: domain, gateways: [], nameServerAddresses: [IPAddress("100.64.0.53")!])
        #expect(throws: (any Error).self) { try ZoneFileUpdate.write(content, to: link, today: SerialPolicy.Day(unixSeconds: 0)) }
        #expect(scene.victimUnchanged)
        var status = stat()
        #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "the link is left as it is")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.sticky) == ["zone.db"], "no temporary file left")
    }

    @Test("a planted link on the way (a folder link in the sticky directory) is refused too")
    func plantedOnTheWay() throws {
        let scene = try Scene()
        defer { scene.remove() }
        scene.plant(scene.sticky + "/dir", to: scene.root)
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write("replaced\n", to: scene.sticky + "/dir/victim") }
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write("new\n", to: scene.sticky + "/dir/new") }
        #expect(scene.victimUnchanged)
        #expect(!FileManager.default.fileExists(atPath: scene.root + "/new"))
    }

    @Test("the file to replace is reached through a link only when the link is this user's or root's, in any directory")
    func allowed() throws {
        let scene = try Scene()
        defer { scene.remove() }
        scene.plant(scene.sticky + "/mine.db", to: scene.victim, owner: 0)
        try AtomicFile.write("through root's link\n", to: scene.sticky + "/mine.db")
        #expect(try String(contentsOfFile: scene.victim, encoding: .utf8) == "through root's link\n")

        // nobody's link, in nobody's own folder (sticky or not) or in an ordinary one: nobody
        // chose the file root would replace (a second outside attack rewrote root's zone so).
        let owned = scene.root + "/nobodys"
        try FileManager.default.createDirectory(atPath: owned, withIntermediateDirectories: false)
        #expect(chmod(owned, 0o755) == 0 && chown(owned, Self.nobody, Self.nobody) == 0)
        let plain = scene.root + "/plain"
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: false)
        for folder in [owned, plain] {
            scene.plant(folder + "/zone.db", to: scene.victim)
            do {
                try AtomicFile.write("through nobody's link\n", to: folder + "/zone.db")
                Issue.record("\(folder)/zone.db: written through nobody's link")
            } catch {
                #expect(error.description.contains("symbolic link of uid 65534"), "\(error.description)")
            }
        }
        #expect(try String(contentsOfFile: scene.victim, encoding: .utf8) == "through root's link\n")
        // A link of this user's in an ordinary folder is followed, and stays a link.
        scene.plant(plain + "/mine.db", to: scene.victim, owner: 0)
        try AtomicFile.write("through a plain folder\n", to: plain + "/mine.db")
        #expect(try String(contentsOfFile: scene.victim, encoding: .utf8) == "through a plain folder\n")
        var status = stat()
        #expect(lstat(plain + "/mine.db", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "the link stays a link")
    }

    @Test("nobody's link on the way, in an ordinary folder: refused for writing and for reading; nothing made where it points")
    func foreignLinkOnTheWay() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let plain = scene.root + "/plain"
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: false)
        scene.plant(plain + "/sub", to: scene.root)
        for path in [plain + "/sub/victim", plain + "/sub/new.db"] {
            do {
                try AtomicFile.write("through nobody's folder link\n", to: path)
                Issue.record("\(path): written through nobody's folder link")
            } catch {
                #expect(error.description.contains("\(plain)/sub is a symbolic link of uid 65534"), "\(error.description)")
            }
        }
        #expect(throws: RegularFile.Failure.self) { try RegularFile.readProtected(plain + "/sub/victim", limit: 1 << 20) }
        #expect(scene.victimUnchanged)
        #expect(!FileManager.default.fileExists(atPath: scene.root + "/new.db"))
    }

    @Test("a link to a missing file through a further link is dangling: refused, nothing made where it points")
    func danglingThroughLinks() throws {
        let scene = try Scene()
        defer { scene.remove() }
        #expect(symlink(scene.root, scene.root + "/here") == 0)
        #expect(symlink(scene.root + "/here/missing", scene.root + "/link.db") == 0)
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write("x", to: scene.root + "/link.db") }
        #expect(!FileManager.default.fileExists(atPath: scene.root + "/missing"))
    }

    @Test("the rule itself, table-tested: sticky and world-writable both needed; the follower or the directory's owner may own the link")
    func rule() {
        func stat(mode: mode_t, uid: uid_t) -> Glibc.stat {
            var status = Glibc.stat()
            status.st_mode = mode
            status.st_uid = uid
            return status
        }
        let cases: [(directoryMode: mode_t, directoryOwner: uid_t, linkOwner: uid_t, follows: Bool)] = [
            (0o41777, 0, 65534, false),
            (0o41777, 0, 0, true),
            (0o41777, 65534, 65534, true),
            (0o41777, 1000, 65534, false),
            (0o40777, 0, 65534, true),
            (0o41775, 0, 65534, true),
            (0o40755, 0, 65534, true),
        ]
        for entry in cases {
            let follows = ProtectedPath.mayFollow(
                link: stat(mode: 0o120777, uid: entry.linkOwner), in: stat(mode: entry.directoryMode, uid: entry.directoryOwner), euid: 0)
            #expect(follows == entry.follows, "\(entry)")
        }
    }
}
