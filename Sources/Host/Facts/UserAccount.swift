import Glibc

/// A user of this machine as the password database has it (getpwnam(3), getpwuid(3)): who may
/// read a file, and where a user's state lives.
package struct UserAccount: Sendable, Hashable {
    package let name: String
    package let uid: UInt32
    package let gid: UInt32
    package let home: String

    package init(name: String, uid: UInt32, gid: UInt32, home: String) {
        self.name = name
        self.uid = uid
        self.gid = gid
        self.home = home
    }

    /// The password database's entry for `name`, nil when there is none.
    package static func named(_ name: String) -> UserAccount? {
        lookUp { getpwnam_r(name, &$0, $1, $2, &$3) }
    }

    package static func withID(_ uid: UInt32) -> UserAccount? {
        lookUp { getpwuid_r(uid, &$0, $1, $2, &$3) }
    }

    /// A password entry is far smaller; getpwnam_r wants the buffer from the caller.
    static let bufferSize = 16_384

    private static func lookUp(
        _ call: (inout passwd, UnsafeMutablePointer<CChar>, Int, inout UnsafeMutablePointer<passwd>?) -> Int32
    ) -> UserAccount? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: bufferSize)
        let status = buffer.withUnsafeMutableBufferPointer { call(&entry, $0.baseAddress!, $0.count, &found) }
        guard status == 0, found != nil, let name = entry.pw_name, let home = entry.pw_dir else { return nil }
        return UserAccount(name: String(cString: name), uid: entry.pw_uid, gid: entry.pw_gid, home: String(cString: home))
    }

    /// Whether this user may read a file with this owner, group and mode (root always may;
    /// supplementary groups aside).
    package func mayRead(owner: UInt32, group: UInt32, mode: UInt32) -> Bool {
        if uid == 0 { return true }
        if owner == uid { return mode & 0o400 != 0 }
        if group == gid { return mode & 0o040 != 0 }
        return mode & 0o004 != 0
    }
}
