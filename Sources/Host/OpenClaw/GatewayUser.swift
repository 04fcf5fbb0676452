import Glibc

/// Whose Gateway `clawnet report` describes: the owner of the OpenClaw state folder it reads
/// (else, under sudo, the user who ran sudo; else the user running it). Only units and files of
/// this user or of root count: any local user can log under a Gateway's unit name, make
/// /tmp/openclaw first, or link a file of theirs to one only root may read, and what they wrote
/// must neither push the Gateway's own lines out nor reach the archive.
package struct GatewayUser: Sendable, Equatable {
    package let uid: UInt32
    /// Its entry in the password database (its home, for its user units and npm prefix).
    package let account: UserAccount?

    package init(uid: UInt32) {
        self.uid = uid
        account = UserAccount.withID(uid)
    }

    /// The owner of `folder` when it exists; else, as root, SUDO_UID; else this process's user.
    package static func owning(_ folder: String, environment: [String: String]) -> GatewayUser {
        var status = stat()
        if stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return GatewayUser(uid: status.st_uid) }
        if geteuid() == 0, let sudo = environment["SUDO_UID"].flatMap({ UInt32($0) }) { return GatewayUser(uid: sudo) }
        return GatewayUser(uid: geteuid())
    }

    /// Whether something owned by `owner` counts: this user's or root's.
    package func counts(owner: UInt32) -> Bool { owner == uid || owner == 0 }

    /// Why a file read for the archive does not count, nil when it does: owned by this user, or by
    /// root and readable by this user by its mode (a link of theirs to a file only root may read
    /// must not hand that file over).
    package func problem(with file: RegularFile.Owned) -> String? {
        guard counts(owner: file.owner) else {
            return "belongs to \(Ownership.user(file.owner)), not to the Gateway's user (\(Ownership.user(uid))) or root: left out"
        }
        guard file.owner == 0, uid != 0 else { return nil }
        // A user without an entry in the password database has no groups: others' bits apply.
        let readable = account?.mayRead(owner: 0, group: file.group, mode: UInt32(file.mode)) ?? (file.mode & 0o004 != 0)
        return readable ? nil : "is root's and \(Ownership.user(uid)) may not read it: left out"
    }
}
