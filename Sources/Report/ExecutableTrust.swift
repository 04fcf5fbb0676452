import Glibc
import Host

/// Whether a program may be run as a user without handing that user's rights (root's, when the
/// report runs as root) to someone else: the program, every link on the way to it and every
/// folder that holds them belong to that user or to root, and nobody else can write them (group
/// root aside; a folder writable by others counts only with the sticky bit, as /tmp has it).
enum ExecutableTrust {
    /// Why `path` must not be run as `uid`, nil when it may.
    static func problem(_ path: String, runAs uid: UInt32) -> String? {
        guard let resolved = realpath(path, nil) else { return "\(path) cannot be resolved" }
        defer { free(resolved) }
        for place in [path, String(cString: resolved)] {
            var prefixes = ["/"]
            for component in place.split(separator: "/", omittingEmptySubsequences: true) {
                prefixes.append((prefixes.count == 1 ? "" : prefixes[prefixes.count - 1]) + "/" + component)
            }
            for prefix in prefixes {
                var status = stat()
                guard lstat(prefix, &status) == 0 else { return "\(prefix) cannot be examined" }
                if let problem = problem(prefix, status, uid: uid) { return problem }
            }
        }
        return nil
    }

    static func problem(_ path: String, _ status: stat, uid: UInt32) -> String? {
        guard status.st_uid == uid || status.st_uid == 0 else {
            return "\(path) belongs to \(Ownership.user(status.st_uid)), who could change what runs as \(Ownership.user(uid))"
        }
        let type = status.st_mode & S_IFMT
        let writable: mode_t = status.st_gid == 0 ? 0o002 : 0o022
        guard type != S_IFLNK, status.st_mode & writable != 0 else { return nil }
        guard type == S_IFDIR, status.st_mode & S_ISVTX != 0 else {
            return "\(path) is writable by group or others (mode 0\(String(status.st_mode & 0o7777, radix: 8)))"
        }
        return nil
    }
}
