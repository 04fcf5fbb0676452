import Glibc

extension RegularFile {
    /// The end of a log: the last `count` bytes of the regular file at `path` (read from there,
    /// however large the file), its owner and its whole size. A symbolic link is refused, not
    /// followed: logs live in folders others may write to (/tmp).
    package static func tail(_ path: String, bytes count: Int) throws(Failure) -> (bytes: [UInt8], owner: UInt32, size: Int) {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            let why = code == ELOOP ? "a symbolic link, not followed" : String(cString: strerror(code))
            throw Failure(kind: code == ENOENT ? .missing : .unreadable, path: path, description: "cannot read \(path): \(why)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(kind: .notRegular, path: path, description: "\(path) is \(kindName(status.st_mode)), not a regular file")
        }
        let size = Int(status.st_size)
        let wanted = min(size, count)
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, wanted - done, off_t(size - wanted + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }  // the file shrank (rotated) while read: keep what came
            done += got
        }
        return (Array(bytes.prefix(done)), status.st_uid, size)
    }
}
