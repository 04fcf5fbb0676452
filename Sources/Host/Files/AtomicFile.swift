import Glibc

/// Writes a file so that readers see the old content or the new, never a mix: a temporary
/// file in the same directory, fsync, rename over the target, fsync of the directory.
///
/// Only a regular file (or a new path) is written: a directory, device, FIFO or socket is
/// refused, never replaced. A symbolic link to a regular file stays a link; the file it
/// points to is replaced, unless another user planted the link in a sticky, world-writable
/// directory (`ProtectedPath`).
package enum AtomicFile {
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The text of the regular file at `path`, nil when nothing is there; reached as a write
    /// would reach it (`ProtectedPath`), so what is read is what would be replaced.
    package static func read(_ path: String, limit: Int) throws(RegularFile.Failure) -> String? {
        try RegularFile.readProtectedIfPresent(path, limit: limit).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// A file to be replaced only if what it holds passes a check: resolved once, its content
    /// read in the folder that resolution opened, and the new content renamed into that same
    /// folder under that same name. Resolving the path again to write would let another user
    /// swap a link between the check and the write, and have root replace a file nobody checked.
    package struct Replacement: Sendable {
        package let location: ProtectedPath
        /// What the file holds now; nil when it does not exist yet.
        package let existing: [UInt8]?

        package init(_ path: String, limit: Int) throws(Failure) {
            location = try writableTarget(path)
            do { existing = location.status == nil ? nil : try RegularFile.read(in: location, shown: path, limit: limit).bytes } catch {
                throw Failure(description: error.description)
            }
        }

        /// The new content staged beside the file that was read, for `commit`.
        package func stage(_ bytes: [UInt8], mode newMode: mode_t? = nil) throws(Failure) -> Staged {
            try AtomicFile.stage(bytes, at: location, mode: newMode)
        }

        package func write(_ bytes: [UInt8], mode newMode: mode_t? = nil) throws(Failure) {
            let staged = try stage(bytes, mode: newMode)
            do { try staged.commit() } catch {
                staged.discard()
                throw error
            }
        }
    }

    /// `mode` applies to the new file; without it an existing file keeps its mode (new: 0644).
    /// `durable` false skips both fsyncs: readers still see the old content or the new, but a
    /// power cut may leave either (or an empty file) behind; for a cache that is checked when read.
    package static func write(_ text: String, to path: String, mode newMode: mode_t? = nil, durable: Bool = true) throws(Failure) {
        try write(bytes: Array(text.utf8), to: path, mode: newMode, durable: durable)
    }

    package static func write(bytes: [UInt8], to path: String, mode newMode: mode_t? = nil, durable: Bool = true) throws(Failure) {
        let staged = try stage(bytes, at: writableTarget(path), mode: newMode, durable: durable)
        do { try staged.commit() } catch {
            staged.discard()
            throw error
        }
    }

    /// New content written and flushed beside its target, not yet in place: `commit` renames
    /// it over the target, `discard` removes it. Staging every file first lets a command
    /// change several files together or none of them. Both act in the directory that was
    /// resolved and opened when the file was staged, whatever has been renamed since.
    package struct Staged: Sendable {
        package var target: String { location.resolved }
        let temporary: String
        let location: ProtectedPath
        var durable = true

        package func commit() throws(Failure) {
            guard renameat(location.directory, temporary, location.directory, location.name) == 0 else {
                throw AtomicFile.failure("cannot rename \(temporary) to \(target)")
            }
            let directoryDescriptor = durable ? openat(location.directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1
            if directoryDescriptor >= 0 {
                fsync(directoryDescriptor)
                close(directoryDescriptor)
            }
        }

        package func discard() {
            unlinkat(location.directory, temporary, 0)
        }

        /// After `commit`: removes the file again (it was new; a set of files is being undone).
        package func removeTarget() {
            unlinkat(location.directory, location.name, 0)
        }
    }

    /// Writes `bytes` to a temporary file beside the file `path` names (through a symbolic
    /// link, the file it points to), after checking that the target is a regular file or new.
    package static func stage(_ bytes: [UInt8], for path: String, mode newMode: mode_t? = nil) throws(Failure) -> Staged {
        try stage(bytes, at: writableTarget(path), mode: newMode)
    }

    /// As `stage(_:for:mode:)`, beside a target already resolved.
    static func stage(_ bytes: [UInt8], at location: ProtectedPath, mode newMode: mode_t?, durable: Bool = true) throws(Failure) -> Staged {
        let (descriptor, temporary) = try createTemporary(beside: location)
        let mode: mode_t = newMode ?? (location.status.map { $0.st_mode & 0o7777 } ?? 0o644)
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let error = failure("cannot write \(temporary)")
                close(descriptor)
                unlinkat(location.directory, temporary, 0)
                throw error
            }
            rest = rest.dropFirst(written)
        }
        guard fchmod(descriptor, mode) == 0, !durable || fsync(descriptor) == 0 else {
            let error = failure("cannot flush \(temporary)")
            close(descriptor)
            unlinkat(location.directory, temporary, 0)
            throw error
        }
        close(descriptor)
        return Staged(temporary: temporary, location: location, durable: durable)
    }

    /// How many random names to try for the temporary file before giving up (mkstemp's
    /// own count is far higher; a collision of 64 random bits is not expected even once).
    static let temporaryAttempts = 8

    /// A new file `.NAME.<random>` in the target's directory, made with O_EXCL and O_NOFOLLOW:
    /// never an existing file or a link someone planted under that name.
    private static func createTemporary(beside location: ProtectedPath) throws(Failure) -> (Int32, String) {
        for _ in 0..<temporaryAttempts {
            let name = ".\(location.name).\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            let descriptor = openat(location.directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 { return (descriptor, name) }
            guard errno == EEXIST else { break }
        }
        let parent = location.resolved.lastIndex(of: "/").map { String(location.resolved[..<$0]) } ?? "."
        throw failure("cannot create a temporary file in \(parent.isEmpty ? "/" : parent)")
    }

    /// Where to rename onto: `path` resolved under the protected-symlinks rule (`ProtectedPath`),
    /// when it leads to a regular file this user owns or to nothing yet; anything else is refused.
    package static func writableTarget(_ path: String) throws(Failure) -> ProtectedPath {
        let location: ProtectedPath
        do { location = try ProtectedPath.resolve(path) } catch { throw Failure(description: error.description) }
        guard let status = location.status else { return location }
        guard status.st_mode & S_IFMT == S_IFREG else {
            let shown = location.resolved == path ? path : "\(path) leads to \(location.resolved), which"
            throw Failure(
                description: "\(shown) is \(RegularFile.kindName(status.st_mode)); clawnet writes only regular files (or a new path), "
                    + "it never replaces anything else")
        }
        try ownedByThisUser(location.resolved, status)
        return location
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
