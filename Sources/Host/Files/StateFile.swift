import Glibc

/// A file clawnet keeps for itself and acts on when it reads it back (what `advertise` added
/// to a zone, to withdraw after a crash). It is read only when this user alone could have
/// written it: a regular file owned by this user and writable by no one else, in a folder
/// owned by this user or root and writable by no one else (or sticky, which keeps others from
/// replacing this user's file). Anything else is refused with the reason, never adopted and
/// never removed: otherwise a file another user planted would steer what root deletes.
package enum StateFile {
    package struct Untrusted: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// The bytes of the state file at `path`, at most `limit`; nil when there is none.
    package static func read(_ path: String, limit: Int) throws -> [UInt8]? {
        guard let opened = try open(path) else { return nil }
        defer { close(opened.descriptor) }
        return try RegularFile.read(opened.descriptor, status: opened.status, path: path, limit: limit)
    }

    /// Removes the state file at `path` when it is one `read` trusts; another's file stays.
    package static func remove(_ path: String) throws(Untrusted) {
        guard let opened = try open(path) else { return }
        close(opened.descriptor)
        unlink(path)
    }

    /// Makes the folder for state files (and those above it that are missing), and sets it
    /// to 0700 when it is this user's; throws when it is not one `read` would trust.
    package static func makeFolder(_ path: String) throws {
        try SecretFile.makeDirectory(path)
        var status = stat()
        guard lstat(path, &status) == 0 else { throw Untrusted(description: "cannot look at \(path): \(String(cString: strerror(errno)))") }
        if status.st_uid == geteuid() && status.st_mode & 0o777 != SecretFile.directoryMode {
            chmod(path, SecretFile.directoryMode)
            status.st_mode = (status.st_mode & ~0o777) | SecretFile.directoryMode
        }
        if let problem = Ownership.folderProblem(path, status) { throw Untrusted(description: problem) }
    }

    /// The file open for reading, with its status, once it and its folder passed; nil when
    /// there is no such file.
    private static func open(_ path: String) throws(Untrusted) -> (descriptor: Int32, status: stat)? {
        let cut = path.lastIndex(of: "/")
        let folderPath = cut.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = cut.map { String(path[path.index(after: $0)...]) } ?? path
        let folder = Glibc.open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            if errno == ENOENT { return nil }
            throw Untrusted(description: "cannot open the folder \(folderPath): \(String(cString: strerror(errno)))")
        }
        defer { close(folder) }
        // O_NOFOLLOW: a link is never ours to follow; O_NONBLOCK: a FIFO does not block the open.
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP { throw Untrusted(description: "\(path) is a symbolic link, not a file clawnet wrote") }
            throw Untrusted(description: "cannot open \(path): \(String(cString: strerror(code)))")
        }
        var status = stat()
        var folderStatus = stat()
        guard fstat(descriptor, &status) == 0, fstat(folder, &folderStatus) == 0 else {
            close(descriptor)
            throw Untrusted(description: "cannot look at \(path): \(String(cString: strerror(errno)))")
        }
        let sticky = folderStatus.st_mode & S_ISVTX != 0
        let problem =
            status.st_mode & S_IFMT != S_IFREG
            ? "\(path) is \(RegularFile.kindName(status.st_mode)), not a file clawnet wrote"
            : Ownership.fileProblem(path, status) ?? (sticky ? nil : Ownership.folderProblem(folderPath, folderStatus))
        guard let problem else { return (descriptor, status) }
        close(descriptor)
        throw Untrusted(description: problem)
    }
}
