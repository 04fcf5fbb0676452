import Glibc
import Synchronization

/// Reading a file clawnet was pointed at (a zone, an inventory, a Corefile, a certificate, a
/// config) without trusting what the path is: only a regular file is read, and at most
/// `limit` bytes of it. A directory, a device (/dev/zero), a FIFO or a socket is refused
/// with a clear reason before anything is read, so no path can make clawnet spin, block or
/// grow without bound.
package enum RegularFile {
    /// Why a file was not read; `kind` is for decisions, `description` for people.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package enum Kind: Sendable, Equatable {
            case missing
            /// A directory, device, FIFO or socket: named in `description`.
            case notRegular
            case tooLarge
            case unreadable
        }

        package let kind: Kind
        package let path: String
        package let description: String
    }

    /// What a path is, from lstat(2), for messages: "a directory", "a FIFO", ...
    package static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// The bytes of the regular file at `path` (symbolic links followed), at most `limit`.
    package static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        try readOwned(path, limit: limit).bytes
    }

    /// As `read`, with the uid of the file that was read (from the same open descriptor): a
    /// credential's owner decides where it may be sent.
    package static func readOwned(_ path: String, limit: Int) throws(Failure) -> (bytes: [UInt8], owner: UInt32) {
        try readOwned(path, limit: limit, pipes: false)
    }

    /// The name of standard input where a file is read (`zone check -`, `--inventory -`).
    package static let standardInput = "-"
    /// How messages name standard input.
    static let standardInputName = "standard input"

    /// `-`, or a pipe (a FIFO, a shell's `<(...)`): input read once, to its end, that has no
    /// file mode worth a warning.
    package static func isStream(_ path: String) -> Bool {
        var status = stat()
        return path == standardInput || (stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    /// As `readOwned`, for a file the user named to read from: also `-` (standard input) and a
    /// pipe (a FIFO, a `<(...)` of the shell), read to their end, at most `limit` bytes. A pipe
    /// is never written (clawnet writes regular files only); its owner is whoever made it.
    /// A pipe can be read once: what it held is kept, and a second read of the same path in
    /// this process (the config, which doctor's checks and its credentials both read) gets it again.
    package static func readInput(_ path: String, limit: Int) throws(Failure) -> (bytes: [UInt8], owner: UInt32) {
        guard isStream(path) else { return try readOwned(path, limit: limit, pipes: true) }
        // Under the lock: two readers of one pipe must not each get half of it.
        return try streamsRead.withLock { (kept) throws(Failure) -> (bytes: [UInt8], owner: UInt32) in
            if let read = kept[path] {
                guard read.bytes.count <= limit else {
                    throw Failure(kind: .tooLarge, path: path, description: tooLarge(path, limit: limit))
                }
                return read
            }
            let read = try readStream(path, limit: limit)
            kept[path] = read
            return read
        }
    }

    /// Each pipe read so far, by the path it was named by: at most one per argument, each at most its limit.
    private static let streamsRead = Mutex<[String: (bytes: [UInt8], owner: UInt32)]>([:])

    private static func readStream(_ path: String, limit: Int) throws(Failure) -> (bytes: [UInt8], owner: UInt32) {
        guard path == standardInput else { return try readOwned(path, limit: limit, pipes: true) }
        var status = stat()
        guard fstat(STDIN_FILENO, &status) == 0 else {
            throw Failure(
                kind: .unreadable, path: standardInputName, description: "cannot read standard input: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw Failure(
                kind: .notRegular, path: standardInputName, description: "standard input is a directory: give a file or pipe one in")
        }
        return (try read(STDIN_FILENO, status: status, path: standardInputName, limit: limit, pipes: true), status.st_uid)
    }

    private static func readOwned(_ path: String, limit: Int, pipes: Bool) throws(Failure) -> (bytes: [UInt8], owner: UInt32) {
        guard !path.isEmpty else { throw Failure(kind: .missing, path: path, description: "an empty path names no file") }
        // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it, or (a
        // pipe the user named) reads it to its end, blocking again.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            guard code != ENOENT && code != ENOTDIR else {
                throw Failure(kind: .missing, path: path, description: "cannot read \(path): no such file")
            }
            throw Failure(kind: .unreadable, path: path, description: "cannot read \(path): \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Failure(kind: .unreadable, path: path, description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        return (try read(descriptor, status: status, path: path, limit: limit, pipes: pipes), status.st_uid)
    }

    /// The bytes of the open file `descriptor` (`status` from its fstat), at most `limit`;
    /// with `pipes`, a FIFO (or standard input's terminal) too.
    static func read(_ descriptor: Int32, status: stat, path: String, limit: Int, pipes: Bool = false) throws(Failure) -> [UInt8] {
        let type = status.st_mode & S_IFMT
        let stream = pipes && (type == S_IFIFO || (path == standardInputName && type != S_IFREG))
        if stream {
            let flags = fcntl(descriptor, F_GETFL)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        }
        guard type == S_IFREG || stream else {
            throw Failure(
                kind: .notRegular, path: path, description: "\(path) is \(kindName(status.st_mode)), not a regular file: give a file's path"
            )
        }
        guard Int(status.st_size) <= limit else {
            throw Failure(kind: .tooLarge, path: path, description: tooLarge(path, limit: limit))
        }
        // Read up to one byte past the limit: a file that grows while it is read is caught too.
        var bytes = [UInt8](repeating: 0, count: min(Int(status.st_size), limit) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                throw Failure(kind: .unreadable, path: path, description: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            count += got
            if count == bytes.count && count <= limit { bytes += [UInt8](repeating: 0, count: min(65_536, limit + 1 - count)) }
        }
        guard count <= limit else { throw Failure(kind: .tooLarge, path: path, description: tooLarge(path, limit: limit)) }
        // A named FIFO nobody has opened for writing reads as empty at once: say so, never wait for one.
        if stream && count == 0 && type == S_IFIFO && path != standardInputName {
            throw Failure(kind: .unreadable, path: path, description: "\(path) is a FIFO that no one writes to: nothing to read")
        }
        return Array(bytes.prefix(count))
    }

    /// The file's text (bytes that are not UTF-8 repaired), nil when it cannot be read: for the
    /// machine's own files (/etc, /proc), whose absence is a fact, not an error.
    package static func text(_ path: String, limit: Int) -> String? {
        (try? read(path, limit: limit)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// As `read`, but nil when nothing is at `path` (a file that may not exist yet).
    package static func readIfPresent(_ path: String, limit: Int) throws(Failure) -> [UInt8]? {
        do { return try read(path, limit: limit) } catch  where error.kind == .missing { return nil }
    }

    private static func tooLarge(_ path: String, limit: Int) -> String {
        "\(path) is larger than \(byteText(limit)), more than clawnet reads from such a file: is it the right file?"
    }

    /// `64 MiB`, `1 MiB`, `64 KiB`.
    static func byteText(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0
            ? "\(bytes >> 20) MiB" : bytes >= 1 << 10 && bytes % (1 << 10) == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }
}

/// The largest file of each kind clawnet reads: far above anything real, far below what would
/// hurt a machine. Every file clawnet reads goes through `RegularFile.read` with one of these,
/// so its size is checked before a byte is read and no more than this is ever held.
package enum FileLimit {
    /// A zone of 10,000 Gateways is about 4 MB.
    package static let zone = 64 << 20
    /// A browse document of 10,000 Gateways is about 10 MB (far more than one domain can
    /// serve); decoded, 16 MiB of the smallest beacons take about 160 MB.
    package static let inventory = 16 << 20
    package static let corefile = 1 << 20
    /// A PEM certificate or key; certificate chains included.
    package static let pem = 1 << 20
    package static let config = 1 << 20
    package static let resolvConf = 64 << 10
    /// `--token-file`: a token is a few dozen characters on one line.
    package static let token = 4 << 10
    /// `--tsig-key`: a BIND or Knot key file is a few hundred bytes.
    package static let tsigKey = 64 << 10
    /// `--as-device`: OpenClaw's device.json is about 400 bytes.
    package static let deviceIdentity = 16 << 10
    /// A small file of the machine: nsswitch.conf, /proc/1/cgroup, a process's comm, osrelease.
    package static let systemFile = 64 << 10
    /// A kernel table under /proc/net (sockets, routes): 150 bytes a line, 100,000 lines fit.
    package static let kernelTable = 16 << 20
}
