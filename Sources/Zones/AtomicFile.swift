import Glibc

/// Writes a file so that readers see the old content or the new, never a mix: a temporary
/// file in the same directory, fsync, rename over the target, fsync of the directory.
public enum AtomicFile {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// nil unless `path` is (or links to) a regular file: a FIFO would block the read, and a
    /// device such as /dev/zero would never end it.
    public static func read(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
            if count < buffer.count { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `mode` applies to the new file; without it an existing file keeps its mode (new: 0644).
    public static func write(_ text: String, to path: String, mode newMode: mode_t? = nil) throws(Failure) {
        if let refusal = refusal(toReplace: path) { throw Failure(description: refusal) }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(name).XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure("cannot create a temporary file in \(directory)") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var done = false
        defer {
            if !done { unlink(temporary) }
        }
        var existing = stat()
        let mode: mode_t = newMode ?? (stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644)
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                close(descriptor)
                throw failure("cannot write \(temporary)")
            }
            bytes = bytes.dropFirst(written)
        }
        guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
            close(descriptor)
            throw failure("cannot flush \(temporary)")
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw failure("cannot rename \(temporary) to \(path)") }
        done = true
        let directoryDescriptor = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Why `path` must not be replaced, or nil. clawnet runs as root: it replaces only a regular
    /// file that this user owns (or makes a new one), never a device, FIFO, folder or symbolic
    /// link (renaming over /dev/null would replace the device with a file).
    public static func refusal(toReplace path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard info.st_uid == geteuid() else {
                return "\(path) belongs to uid \(info.st_uid), not to this user (uid \(geteuid())): clawnet replaces only files it owns"
            }
            return nil
        case S_IFLNK: return "\(path) is a symbolic link: give the path of the file itself"
        case S_IFDIR: return "\(path) is a folder: give a file's path"
        default: return "\(path) is not a regular file (a device, FIFO or socket): clawnet replaces only regular files"
        }
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
