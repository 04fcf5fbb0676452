import DNSUpdate
import Host
import Output

/// The warning every command prints when a file it reads a secret from is open to group or
/// others (as ssh does for a private key): the command goes on, the user is told.
enum SecretWarnings {
    static func print(_ warnings: [SecretFileWarning], to terminal: Terminal) {
        warnings.forEach { terminal.err("warning: \($0)") }
    }

    /// The file at `path`, when it is open to others.
    static func check(_ path: String, _ kind: SecretFileWarning.Kind, terminal: Terminal) {
        print(SecretFile.warning(path: path, kind: kind).map { [$0] } ?? [], to: terminal)
    }

    /// --tsig-key's file.
    static func tsigKey(_ key: TSIGKey?, terminal: Terminal) {
        if let file = key?.file { check(file, .tsigKey, terminal: terminal) }
    }
}
