import Glibc

/// Whether a file or folder that clawnet acts on is under this user's control alone. Running
/// as root, clawnet must not take its orders (a ledger to undo, a config naming a token, a
/// folder for a TLS key) from a file another local user wrote or can change.
package enum Ownership {
    /// Write permission for group and others.
    static let othersWrite: mode_t = 0o022

    /// Why the file `status` describes is not this user's alone, nil when it is: owned by this
    /// user (or by root, when `rootToo`), and writable by nobody else.
    package static func fileProblem(_ path: String, _ status: stat, rootToo: Bool = false) -> String? {
        fileProblem(path, owner: status.st_uid, mode: status.st_mode, rootToo: rootToo)
    }

    /// As `fileProblem(_:_:rootToo:)`, from the owner and mode bits.
    package static func fileProblem(_ path: String, owner: uid_t, mode: mode_t, rootToo: Bool = false) -> String? {
        let euid = geteuid()
        guard owner == euid || (rootToo && owner == 0) else {
            return "\(path) belongs to \(user(owner)), not to this user (\(user(euid)))\(rootToo ? " or root" : "")"
        }
        guard mode & othersWrite == 0 else {
            return "\(path) is writable by group or others (mode 0\(String(mode & 0o7777, radix: 8)))"
        }
        return nil
    }

    /// Why the folder `status` describes lets another user swap what is in it, nil when it
    /// does not: owned by this user or root, and writable by nobody else.
    package static func folderProblem(_ path: String, _ status: stat) -> String? {
        guard status.st_uid == geteuid() || status.st_uid == 0 else {
            return "the folder \(path) belongs to \(user(status.st_uid)), not to this user (\(user(geteuid()))) or root"
        }
        guard status.st_mode & othersWrite == 0 else {
            return "the folder \(path) is writable by group or others (mode 0\(String(status.st_mode & 0o7777, radix: 8)))"
        }
        return nil
    }

    /// The first symbolic link on the way to `path` (itself included) that belongs to another
    /// user than this one or root, with its owner: that user chose where the path leads. Each
    /// prefix is looked at with lstat, so a link inside a link's target is seen too.
    package static func foreignLink(onTheWayTo path: String) -> (link: String, owner: uid_t)? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            var status = stat()
            guard lstat(prefix, &status) == 0 else { return nil }
            if status.st_mode & S_IFMT == S_IFLNK, status.st_uid != geteuid(), status.st_uid != 0 { return (prefix, status.st_uid) }
        }
        return nil
    }

    /// `uid 65534 (nobody)`; the number alone when the account has no name.
    package static func user(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "uid \(uid) (\(String(cString: name)))"
    }
}
