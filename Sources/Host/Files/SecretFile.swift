import DNSSD
import Glibc

/// A file holding a secret (a Gateway token, a TSIG key, a device identity, a config with a
/// token in it) that other users may read or change: clawnet uses it, and says so as ssh does.
package struct SecretFileWarning: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable, Hashable {
        case token = "a Gateway token"
        case tsigKey = "a TSIG key"
        case deviceIdentity = "a device identity"
        case config = "an OpenClaw config with a token"
        case tlsKey = "a TLS private key"
    }

    package let path: String
    /// The permission bits (st_mode & 07777).
    package let mode: UInt32
    package let kind: Kind

    /// nil when neither group nor others have any access (ssh's test: `st_mode & 077`).
    package init?(path: String, mode: UInt32, kind: Kind) {
        guard mode & SecretFile.groupAndOthers != 0 else { return nil }
        self.path = path
        self.mode = mode & 0o7777
        self.kind = kind
    }

    package var description: String {
        let what = mode & 0o044 != 0 ? "readable" : "accessible"
        return "\(path) holds \(kind.rawValue) and is \(what) by group or others (mode 0\(String(mode, radix: 8))): "
            + "`chmod 600 \(ShellWord.quoted(path))`"
    }
}

/// Files and folders that hold secrets.
package enum SecretFile {
    /// The group and other permission bits.
    static let groupAndOthers: UInt32 = 0o077
    /// What a folder of keys gets, whatever the umask: its owner only.
    package static let directoryMode: mode_t = 0o700
    /// What a key file gets.
    package static let fileMode: mode_t = 0o600

    /// The warning for the file at `path`, from stat(2) (links followed); nil when it is
    /// private or cannot be looked at, and for `-` or a pipe: read once, to its end, it keeps
    /// nothing others could read later, whatever its mode says.
    package static func warning(path: String, kind: SecretFileWarning.Kind) -> SecretFileWarning? {
        var status = stat()
        guard !RegularFile.isStream(path), stat(path, &status) == 0 else { return nil }
        return SecretFileWarning(path: path, mode: UInt32(status.st_mode), kind: kind)
    }

    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Makes the folder `path` (and the folders above it that are missing) for keys: each one
    /// made here is 0700, whatever the umask (mkdir applies the umask, chmod then sets the mode
    /// exactly). A folder that exists is left as it is.
    package static func makeDirectory(_ path: String) throws(Failure) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw Failure(description: "\(path) exists and is not a folder") }
            return
        }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty && parent != path { try makeDirectory(parent) }
        guard mkdir(path, directoryMode) == 0 else {
            // Made meanwhile by someone else: theirs, left as it is.
            if errno == EEXIST { return }
            throw Failure(description: "cannot create the folder \(path): \(String(cString: strerror(errno)))")
        }
        guard chmod(path, directoryMode) == 0 else {
            throw Failure(description: "cannot set the mode of \(path): \(String(cString: strerror(errno)))")
        }
    }
}
