import Glibc
import Host

/// Writes a file so that readers see the old content or the new, never a mix: a temporary
/// file in the same directory, fsync, rename over the target, fsync of the directory.
///
/// Only a regular file (or a new path) is written: a directory, device, FIFO or socket is
/// refused, never replaced. A symbolic link to a regular file stays a link; the file it
/// points to is replaced.
public enum AtomicFile {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The text of the regular file at `path`, nil when nothing is there.
    public static func read(_ path: String, limit: Int) throws(RegularFile.Failure) -> String? {
        try RegularFile.readIfPresent(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `mode` applies to the new file; without it an existing file keeps its mode (new: 0644).
    public static func write(_ text: String, to path: String, mode newMode: mode_t? = nil) throws(Failure) {
        try write(bytes: Array(text.utf8), to: path, mode: newMode)
    }

    public static func write(bytes: [UInt8], to path: String, mode newMode: mode_t? = nil) throws(Failure) {
        let staged = try stage(bytes, for: path, mode: newMode)
        do { try staged.commit() } catch {
            staged.discard()
            throw error
        }
    }

    /// New content written and flushed beside its target, not yet in place: `commit` renames
    /// it over the target, `discard` removes it. Staging every file first lets a command
    /// change several files together or none of them.
    public struct Staged: Sendable {
        public let target: String
        let temporary: String
        let directory: String

        public func commit() throws(Failure) {
            guard rename(temporary, target) == 0 else { throw AtomicFile.failure("cannot rename \(temporary) to \(target)") }
            let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directoryDescriptor >= 0 {
                fsync(directoryDescriptor)
                close(directoryDescriptor)
            }
        }

        public func discard() {
            unlink(temporary)
        }
    }

    /// Writes `bytes` to a temporary file beside the file `path` names (through a symbolic
    /// link, the file it points to), after checking that the target is a regular file or new.
    public static func stage(_ bytes: [UInt8], for path: String, mode newMode: mode_t? = nil) throws(Failure) -> Staged {
        let target = try writableTarget(path)
        let directory = target.contains("/") ? String(target[..<target.lastIndex(of: "/")!]) : "."
        let parent = directory.isEmpty ? "/" : directory
        let name = target.split(separator: "/").last.map(String.init) ?? target
        var template = Array("\(parent)/.\(name).XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure("cannot create a temporary file in \(parent)") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var existing = stat()
        let mode: mode_t = newMode ?? (stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644)
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let error = failure("cannot write \(temporary)")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            rest = rest.dropFirst(written)
        }
        guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
            let error = failure("cannot flush \(temporary)")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        return Staged(target: target, temporary: temporary, directory: parent)
    }

    /// The path to rename onto: `path` itself when it is a regular file or absent, the file a
    /// symbolic link resolves to when that is a regular file; anything else is refused.
    static func writableTarget(_ path: String) throws(Failure) -> String {
        guard !path.isEmpty else { throw Failure(description: "an empty path names no file") }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else { throw failure("cannot use \(path)") }
            return path
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            try ownedByThisUser(path, status)
            return path
        case S_IFLNK:
            guard let resolved = realpath(path, nil) else {
                throw Failure(description: "\(path) is a symbolic link to a file that does not exist; point it at a file or remove it")
            }
            defer { free(resolved) }
            let target = String(cString: resolved)
            var targetStatus = stat()
            guard stat(target, &targetStatus) == 0, targetStatus.st_mode & S_IFMT == S_IFREG else {
                throw Failure(description: "\(path) leads to \(target), which is not a regular file; clawnet writes only regular files")
            }
            try ownedByThisUser(target, targetStatus)
            return target
        default:
            throw Failure(
                description: "\(path) is \(RegularFile.kindName(status.st_mode)); clawnet writes only regular files (or a new path), "
                    + "it never replaces anything else")
        }
    }

    /// clawnet runs as root: it replaces only a file that this user owns, never another
    /// user's (a root-run command must not take over what someone else keeps).
    static func ownedByThisUser(_ path: String, _ status: stat) throws(Failure) {
        guard status.st_uid == geteuid() else {
            throw Failure(
                description:
                    "\(path) belongs to uid \(status.st_uid), not to this user (uid \(geteuid())): clawnet replaces only files it owns")
        }
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
