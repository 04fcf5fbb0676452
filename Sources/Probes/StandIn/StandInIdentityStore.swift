import DNSSD
import Glibc
import Host

/// `advertise --serve --tls-dir DIR`: the stand-in's certificate and key kept in DIR
/// (gateway-cert.pem, gateway-key.pem, as the Gateway names them), made there when both are
/// missing, so that the fingerprint nodes pin survives restarts.
package struct StandInIdentityStore: Sendable {
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// What `load` found: the pair kept there (with a warning when others can read the key),
    /// or one made now.
    package enum Loaded: Sendable {
        case kept(StandInIdentity, keyWarning: SecretFileWarning?)
        case made(StandInIdentity)

        package var identity: StandInIdentity {
            switch self {
            case .kept(let identity, _), .made(let identity): identity
            }
        }
    }

    package let directory: String

    package init(directory: String) {
        self.directory = directory
    }

    package var certificatePath: String { "\(directory)/gateway-cert.pem" }
    package var keyPath: String { "\(directory)/gateway-key.pem" }

    /// The pair in the folder; both missing: a new pair, saved there (the folder 0700 and the
    /// key 0600 whatever the umask). Only regular files of PEM size are read: a FIFO or
    /// /dev/zero there is an error, not a hang. One of the two alone is an error: a new pair
    /// would change the fingerprint nodes pinned.
    package func load() throws -> Loaded {
        try checkFolder()
        let pair: (String?, String?)
        do {
            pair = (try AtomicFile.read(certificatePath, limit: FileLimit.pem), try AtomicFile.read(keyPath, limit: FileLimit.pem))
        } catch {
            throw Failure(description: error.description)
        }
        switch pair {
        case (let certificate?, let key?):
            return .kept(
                StandInIdentity(certificatePEM: certificate, keyPEM: key), keyWarning: SecretFile.warning(path: keyPath, kind: .tlsKey))
        case (nil, nil):
            let made = try StandInIdentity.make()
            do { try SecretFile.makeDirectory(directory) } catch {
                throw Failure(description: "\(error.description) (for the certificate and key)")
            }
            try AtomicFile.write(made.keyPEM, to: keyPath, mode: SecretFile.fileMode)
            try AtomicFile.write(made.certificatePEM, to: certificatePath, mode: 0o644)
            return .made(made)
        default:
            throw Failure(
                description:
                    "\(directory) holds only one of gateway-cert.pem and gateway-key.pem; restore the other or remove both to make a "
                    + "new pair"
            )
        }
    }

    /// A folder another user controls (theirs, or one others can write) could swap the key for
    /// theirs between two runs: refused with the fix, whatever is in it. A missing one is made.
    private func checkFolder() throws {
        // Another user's link names the folder, or a folder on the way: that user chose where the key goes.
        if let (link, owner) = Ownership.foreignLink(onTheWayTo: directory) {
            throw Failure(
                description:
                    "\(link) is a symbolic link of \(Ownership.user(owner)): that user chooses where the TLS key goes; give "
                    + "the folder's own path as --tls-dir")
        }
        // Its parent: whoever may rename entries there could swap the whole folder (a sticky
        // one, such as /tmp, lets nobody rename what is not theirs).
        let parent = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let parentPath = parent.contains("/") ? String(parent[..<parent.lastIndex(of: "/")!]) : "."
        var parentStatus = stat()
        if stat(parentPath.isEmpty ? "/" : parentPath, &parentStatus) == 0, parentStatus.st_mode & S_ISVTX == 0,
            let problem = Ownership.folderProblem(parentPath.isEmpty ? "/" : parentPath, parentStatus)
        {
            throw Failure(description: "\(problem): another user could swap \(directory) and the TLS key in it; give another --tls-dir")
        }
        var status = stat()
        guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
            let problem = Ownership.folderProblem(directory, status)
        else { return }
        throw Failure(
            description:
                "\(problem): another user could swap the TLS key kept there; `chmod 700 \(ShellWord.quoted(directory))`, and `chown` it "
                + "to this user if it is not this user's (or give another --tls-dir)")
    }
}
