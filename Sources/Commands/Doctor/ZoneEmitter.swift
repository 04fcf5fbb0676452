import DNSSD
import Doctor
import Host
import Output
import Zones

/// `doctor --emit-zone FILE`: the zone snippets as one fragment, written as clawnet writes
/// files (atomically; only a new path or a regular file: the path itself is checked with
/// the other flags, before doctor runs).
enum ZoneEmitter {
    /// Enough of a file for its first line, the fragment's marker (a domain is at most 255 bytes).
    static let fragmentHead = 1024

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
            // Checked and replaced in the folder it was read from: a link swapped in between changes nothing.
            let target = try AtomicFile.Replacement(path, limit: FileLimit.zone)
            guard !holdsOthersContent(target.existing) else {
                throw CommandError(
                    "\(path) holds content clawnet did not write (not a fragment doctor --emit-zone wrote); nothing written",
                    fix: "move it away or give --emit-zone a new path")
            }
            try target.write(Array(try ZoneSnippets.fragment(snippets, domain: domain).utf8))
        } catch let error as CommandError {
            throw error
        } catch let error as ZoneError {
            throw CommandError(
                "\(error.message)\(error.fix.map { " (fix: \($0))" } ?? ""); nothing written",
                fix: "give --emit-zone a new path or a regular file this user owns")
        } catch {
            throw CommandError("\(error); nothing written", fix: "give --emit-zone a new path or a regular file this user owns")
        }
        terminal.err("wrote \(path): records for \(domain.name) (check it with `clawnet zone check \(ShellWord.quoted(path))`)")
    }

    /// True when the file holds something other than a fragment doctor wrote before (a zone,
    /// notes): someone's work, never replaced. Empty or missing: nothing to lose.
    static func holdsOthersContent(_ existing: [UInt8]?) -> Bool {
        guard let existing, !existing.isEmpty else { return false }
        return ZoneWriter.fragmentDomain(String(decoding: existing.prefix(fragmentHead), as: UTF8.self)) == nil
    }
}
