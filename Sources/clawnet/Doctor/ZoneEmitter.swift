import DNSSD
import Doctor
import Host
import Output

/// `doctor --emit-zone FILE`: the zone snippets as one fragment, written as clawnet writes
/// files (atomically; only a new path or a regular file: the path itself is checked with
/// the other flags, before doctor runs).
enum ZoneEmitter {
    static func write(_ snippets: [ZoneSnippet], to path: String, terminal: Terminal) throws {
        let domains = Array(Set(snippets.map(\.domain))).sorted { $0.name < $1.name }
        guard let domain = domains.first else {
            terminal.err("note: no zone snippet (every verified Gateway is published as it is); \(path) is not written")
            return
        }
        guard domains.count == 1 else {
            throw CommandError(
                "snippets for \(domains.map(\.name).joined(separator: ", ")): one fragment holds one zone",
                fix: "name one domain with --domain to write its fragment")
        }
        do {
            try AtomicFile.write(try ZoneSnippets.fragment(snippets, domain: domain), to: path)
        } catch {
            throw CommandError("\(error); nothing written", fix: "give --emit-zone a new path or a regular file this user owns")
        }
        terminal.err("wrote \(path): records for \(domain.name) (check it with `clawnet zone check \(path)`)")
    }
}
