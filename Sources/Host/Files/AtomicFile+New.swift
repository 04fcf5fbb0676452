import Glibc

extension AtomicFile {
    /// Why a new file was not written: `exists` when something is at its path.
    package struct NewFileFailure: Error, Sendable, CustomStringConvertible {
        package let exists: Bool
        package let description: String
    }

    /// Writes a file that must be new, and never replaces one that appeared meanwhile: the content
    /// is staged and flushed beside it, then linked into place with link(2), which fails when the
    /// name is taken, whatever took it (a file, a link, a FIFO). Where the file system has no hard
    /// links, the file is created with O_EXCL and written in place instead (exclusive all the same).
    package static func writeNew(bytes: [UInt8], to path: String, mode: mode_t) throws(NewFileFailure) {
        let location: ProtectedPath
        do { location = try ProtectedPath.resolve(path) } catch {
            throw NewFileFailure(exists: error.kind == .dangling, description: error.description)
        }
        guard location.status == nil else { throw NewFileFailure(exists: true, description: "\(path) exists") }
        let staged: Staged
        do { staged = try stage(bytes, at: location, mode: mode) } catch {
            throw NewFileFailure(exists: false, description: error.description)
        }
        defer { staged.discard() }
        if linkat(location.directory, staged.temporary, location.directory, location.name, 0) == 0 {
            syncDirectory(location.directory)
            return
        }
        let code = errno
        guard code != EEXIST else { throw NewFileFailure(exists: true, description: "\(path) exists") }
        guard [EPERM, EOPNOTSUPP, ENOSYS, EMLINK, EXDEV].contains(code) else {
            throw NewFileFailure(exists: false, description: "cannot create \(path): \(String(cString: strerror(code)))")
        }
        try createExclusively(bytes, in: location, shown: path, mode: mode)
    }

    private static func createExclusively(_ bytes: [UInt8], in location: ProtectedPath, shown path: String, mode: mode_t)
        throws(NewFileFailure)
    {
        let descriptor = openat(location.directory, location.name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let code = errno
            throw NewFileFailure(exists: code == EEXIST, description: "cannot create \(path): \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw NewFileFailure(exists: false, description: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            rest = rest.dropFirst(written)
        }
        guard fsync(descriptor) == 0 else {
            throw NewFileFailure(exists: false, description: "cannot flush \(path): \(String(cString: strerror(errno)))")
        }
        syncDirectory(location.directory)
    }

    static func syncDirectory(_ directory: Int32) {
        let descriptor = openat(directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}
