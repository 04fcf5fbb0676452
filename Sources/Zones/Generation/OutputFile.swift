import Glibc
import Host

/// The files `zone generate` writes (`--out`, `--corefile`): checked before anything runs,
/// and written together, so that both change or neither does.
package enum OutputFile {
    /// Why `path` cannot be a file clawnet writes, nil when it can: it must name a regular
    /// file or a new one (no directory, device, FIFO or socket), without control characters,
    /// and not through a link another user planted in a sticky directory (`ProtectedPath`).
    package static func problem(_ path: String) -> String? {
        guard !path.isEmpty else { return "an empty path names no file" }
        // `-` reads standard input wherever a file is read; as an output it would quietly make
        // a file named "-", which no one asking for standard output wants.
        guard path != "-" else {
            return "- is standard output, and clawnet writes files only: give a path (./- for a file named -), or leave the flag out"
                + " where the command prints to standard output without it"
        }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the path holds a control character (a newline, a tab, an escape): give a plain path"
        }
        guard !path.hasSuffix("/") else { return "\(path) names a directory: give a file's path" }
        let location: ProtectedPath
        do { location = try ProtectedPath.resolve(path) } catch {
            // A missing folder or a dangling link: AtomicFile says which when it writes.
            return error.kind == .foreignLink || error.kind == .directory ? error.description : nil
        }
        guard let status = location.status, status.st_mode & S_IFMT != S_IFREG else { return nil }
        return "\(path) is \(RegularFile.kindName(status.st_mode)); clawnet writes only regular files (or a new path)"
    }

    /// True when the two paths name the same file: the same path once symbolic links and `.`
    /// and `..` are resolved, or the same device and inode (hard links).
    package static func same(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        if stat(first, &a) == 0, stat(second, &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino { return true }
        guard let one = resolved(first), let two = resolved(second) else { return false }
        return one == two
    }

    /// The path with its links resolved; for a file that does not exist yet, its directory's.
    private static func resolved(_ path: String) -> String? {
        if let full = realpath(path, nil) {
            defer { free(full) }
            return String(cString: full)
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let full = realpath(directory, nil) else { return nil }
        defer { free(full) }
        let base = String(cString: full)
        return (base == "/" ? "" : base) + "/" + name
    }

    /// One file to write, where it was read (`target`), with what it held before.
    package struct Change: Sendable {
        package let path: String
        package let text: String
        package let target: AtomicFile.Replacement
        /// What the file held (nil: it did not exist).
        package var previous: [UInt8]? { target.existing }

        package init(_ target: AtomicFile.Replacement, path: String, text: String) {
            self.target = target
            self.path = path
            self.text = text
        }

        /// A change to a file nobody read first: resolved (and read) now.
        package init(path: String, text: String, limit: Int = FileLimit.zone) throws(AtomicFile.Failure) {
            self.init(try AtomicFile.Replacement(path, limit: limit), path: path, text: text)
        }
    }

    /// Writes every change or none: all are staged (written and flushed beside their targets)
    /// first, which is where a full disk or a missing directory fails; then each is renamed
    /// into place, and if a rename fails, those already in place get their old content back.
    package static func writeTogether(_ changes: [Change]) throws(AtomicFile.Failure) {
        var staged: [AtomicFile.Staged] = []
        for change in changes {
            do { staged.append(try change.target.stage(Array(change.text.utf8))) } catch {
                staged.forEach { $0.discard() }
                throw error
            }
        }
        for (index, file) in staged.enumerated() {
            do { try file.commit() } catch {
                staged[index...].forEach { $0.discard() }
                for (done, change) in zip(staged[..<index], changes) {
                    if let previous = change.previous {
                        try? change.target.write(previous)
                    } else {
                        done.removeTarget()
                    }
                }
                throw AtomicFile.Failure(description: "\(error.description); the files written before it were put back as they were")
            }
        }
    }
}
