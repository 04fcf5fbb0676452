import Glibc

/// A path resolved one component at a time under the kernel's protected_symlinks rule, whatever
/// `fs.protected_symlinks` says on this machine (it is often 0 in containers, and clawnet's own
/// resolution would bypass it anyway): a symbolic link that sits in a sticky, world-writable
/// directory (/tmp) is followed only when it belongs to this user or to the directory's owner.
/// Otherwise anyone could plant `/tmp/zone.db -> /etc/shadow` for a root-run clawnet to replace.
///
/// The result is the directory that holds the last component, open (so that nothing on the
/// way can be swapped afterwards), and that component's name, never a link: a caller opens it
/// with `openat` and `O_NOFOLLOW`, or renames onto it with `renameat`.
package final class ProtectedPath: Sendable {
    /// Why a path was not resolved; `description` names the link or the component.
    package struct Refusal: Error, Sendable, CustomStringConvertible {
        package enum Kind: Sendable, Equatable {
            /// A link another user planted in a sticky, world-writable directory.
            case foreignLink
            /// The last component is a link to nothing.
            case dangling
            /// The path ends in a directory (`/`, `..`).
            case directory
            /// A component on the way is missing, not a directory, or cannot be opened.
            case unusable
        }

        package let kind: Kind
        package let description: String
    }

    /// The directory holding `name`, open with O_PATH; closed when this value goes away.
    package let directory: Int32
    /// The last component: a regular file, something else, or nothing yet (`status` nil).
    package let name: String
    /// The path the links lead to, for messages.
    package let resolved: String
    package let status: stat?

    /// Linux's MAXSYMLINKS: more links than this in one resolution is a loop.
    static let maxLinks = 40

    deinit { close(directory) }

    package static func resolve(_ path: String) throws(Refusal) -> ProtectedPath {
        guard !path.isEmpty else { throw Refusal(kind: .unusable, description: "an empty path names no file") }
        let walk = try Walk(absolute: path.hasPrefix("/"))
        var pending = components(path)
        var links = 0
        var lastWasLink = false
        while !pending.isEmpty {
            let component = pending.removeFirst()
            let isLast = pending.isEmpty
            if component == "." { continue }
            if component == ".." {
                try walk.enter("..")
                continue
            }
            var status = stat()
            guard fstatat(walk.descriptor, component, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
                let code = errno
                guard code == ENOENT, isLast else { throw walk.unusable(component, code) }
                guard !lastWasLink else {
                    throw Refusal(
                        kind: .dangling,
                        description: "\(path) is a symbolic link to a file that does not exist; point it at a file or remove it")
                }
                return walk.finish(component, status: nil)
            }
            guard status.st_mode & S_IFMT == S_IFLNK else {
                if isLast { return walk.finish(component, status: status) }
                try walk.enter(component)
                continue
            }
            try walk.checkFollow(component, link: status, in: path)
            links += 1
            guard links <= maxLinks else { throw walk.unusable(component, ELOOP) }
            let target = try walk.readLink(component)
            if target.hasPrefix("/") { try walk.restartAtRoot() }
            pending = components(target) + pending
            // From here on, the last name comes through a link (a dangling one is refused).
            if isLast { lastWasLink = true }
        }
        throw Refusal(kind: .directory, description: "\(path) names a directory: give a file's path")
    }

    fileprivate init(directory: Int32, name: String, resolved: String, status: stat?) {
        self.directory = directory
        self.name = name
        self.resolved = resolved
        self.status = status
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// The kernel's may_follow_link (fs/namei.c): outside a sticky, world-writable directory
    /// every link is followed; inside one, only a link of the follower or of the directory's owner.
    package static func mayFollow(link: stat, in directory: stat, euid: uid_t = geteuid()) -> Bool {
        let stickyAndOpen = directory.st_mode & (S_ISVTX | S_IWOTH) == (S_ISVTX | S_IWOTH)
        return !stickyAndOpen || link.st_uid == euid || link.st_uid == directory.st_uid
    }
}

/// O_PATH (an fd that names a place without opening it for reading), which Glibc's module does
/// not export (it needs _GNU_SOURCE): 010000000 on every Linux architecture Swift runs on.
let openPathOnly: Int32 = 0o10_000_000

/// The directory a resolution stands in, and the path that led there (for messages).
private final class Walk {
    var descriptor: Int32
    var status = stat()
    var shown: [String]

    init(absolute: Bool) throws(ProtectedPath.Refusal) {
        descriptor = -1
        shown = []
        if absolute {
            try restartAtRoot()
        } else {
            descriptor = open(".", openPathOnly | O_DIRECTORY | O_CLOEXEC)
            shown = Self.currentDirectory()
            guard descriptor >= 0, fstat(descriptor, &status) == 0 else { throw unusable(".", errno) }
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    private static func currentDirectory() -> [String] {
        guard let text = getcwd(nil, 0) else { return ["."] }
        defer { free(text) }
        return String(cString: text).split(separator: "/").map(String.init)
    }

    func restartAtRoot() throws(ProtectedPath.Refusal) {
        try replace(with: open("/", openPathOnly | O_DIRECTORY | O_CLOEXEC), "/")
        shown = []
    }

    /// Steps into `component`, a directory (or `..`), never through a link.
    func enter(_ component: String) throws(ProtectedPath.Refusal) {
        try replace(with: openat(descriptor, component, openPathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), component)
        if component == ".." {
            _ = shown.popLast()
        } else {
            shown.append(component)
        }
    }

    private func replace(with next: Int32, _ component: String) throws(ProtectedPath.Refusal) {
        guard next >= 0 else { throw unusable(component, errno) }
        var nextStatus = stat()
        guard fstat(next, &nextStatus) == 0 else {
            let code = errno
            close(next)
            throw unusable(component, code)
        }
        if descriptor >= 0 { close(descriptor) }
        descriptor = next
        status = nextStatus
    }

    /// The kernel's rule first (its message names it); then clawnet's own, in any directory: a
    /// link of another user (not this one, not root) is never followed, on the way or at the end,
    /// because that user chose where it leads (a file root replaces, a folder a key goes into).
    func checkFollow(_ component: String, link: stat, in path: String) throws(ProtectedPath.Refusal) {
        guard ProtectedPath.mayFollow(link: link, in: status) else {
            throw ProtectedPath.Refusal(
                kind: .foreignLink,
                description:
                    "\(path): \(here(component)) is a symbolic link of uid \(link.st_uid) in \(here(nil)), a sticky world-writable "
                    + "directory of uid \(status.st_uid); clawnet follows such a link only when it belongs to this user "
                    + "(uid \(geteuid())) or to the directory's owner, as the kernel's protected_symlinks does")
        }
        guard link.st_uid == geteuid() || link.st_uid == 0 else {
            throw ProtectedPath.Refusal(
                kind: .foreignLink,
                description:
                    "\(path): \(here(component)) is a symbolic link of uid \(link.st_uid); clawnet follows a link only when it belongs "
                    + "to this user (uid \(geteuid())) or root, whoever else made it chose where it leads: give the real path")
        }
    }

    func readLink(_ component: String) throws(ProtectedPath.Refusal) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(descriptor, component, &buffer, buffer.count - 1)
        guard count >= 0 else { throw unusable(component, errno) }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The open directory and `component` in it, handed over to the result.
    func finish(_ component: String, status: stat?) -> ProtectedPath {
        let result = ProtectedPath(directory: descriptor, name: component, resolved: here(component), status: status)
        descriptor = -1
        return result
    }

    func here(_ component: String?) -> String {
        "/" + (shown + (component.map { [$0] } ?? [])).joined(separator: "/")
    }

    func unusable(_ component: String, _ code: Int32) -> ProtectedPath.Refusal {
        ProtectedPath.Refusal(kind: .unusable, description: "cannot use \(here(component)): \(String(cString: strerror(code)))")
    }
}
