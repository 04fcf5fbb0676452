import Glibc

/// Reads that decide something by the file's owner (a config that names where a token goes, a
/// device identity, a key, a file about to be replaced): the file is reached as `ProtectedPath`
/// walks (each folder opened on the way, never through another user's link), opened in the
/// folder the walk ended in, and its owner and mode come from that open descriptor. Checking a
/// path and then opening it again let another user swap the file in between.
extension RegularFile {
    /// A file's bytes, with the owner and permission bits of the file they were read from.
    package struct Owned: Sendable {
        package let bytes: [UInt8]
        package let owner: uid_t
        package let mode: mode_t
        package var group: gid_t = 0
    }

    /// The regular file `path` names, at most `limit` bytes; `.missing` when nothing is there.
    package static func readProtected(_ path: String, limit: Int) throws(Failure) -> Owned {
        let location: ProtectedPath
        do { location = try ProtectedPath.resolve(path) } catch {
            var status = stat()
            let missing = error.kind == .unusable && stat(path, &status) != 0 && (errno == ENOENT || errno == ENOTDIR)
            throw Failure(kind: missing ? .missing : .unreadable, path: path, description: error.description)
        }
        return try read(in: location, shown: path, limit: limit)
    }

    /// As `readProtected`, nil when nothing is there.
    package static func readProtectedIfPresent(_ path: String, limit: Int) throws(Failure) -> Owned? {
        do { return try readProtected(path, limit: limit) } catch  where error.kind == .missing { return nil }
    }

    /// The file a walk ended at, opened in its folder without following a link, and only if it
    /// is still the file the walk saw (the same device and inode): one swapped in since is refused.
    package static func read(in location: ProtectedPath, shown path: String, limit: Int) throws(Failure) -> Owned {
        guard let seen = location.status else {
            throw Failure(kind: .missing, path: path, description: "cannot read \(path): no such file")
        }
        // O_NONBLOCK: a FIFO swapped in must not wait for a writer; fstat then refuses it.
        let descriptor = openat(location.directory, location.name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            throw Failure(
                kind: code == ENOENT ? .missing : .unreadable, path: path,
                description: "cannot read \(path): \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Failure(kind: .unreadable, path: path, description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_dev == seen.st_dev, status.st_ino == seen.st_ino else {
            throw Failure(
                kind: .unreadable, path: path, description: "\(path) was replaced while clawnet opened it; nothing was read from it")
        }
        let bytes = try read(descriptor, status: status, path: path, limit: limit)
        return Owned(bytes: bytes, owner: status.st_uid, mode: status.st_mode & 0o7777, group: status.st_gid)
    }
}
