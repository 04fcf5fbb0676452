import ArgumentParser
import DNSSD
import Doctor
import FoundationEssentials
import Glibc
import Output
import Zones

/// `doctor --emit-zone FILE`: the zone snippets as one fragment, written as clawnet writes
/// files (atomically; only a new path or a regular file).
enum ZoneEmitter {
    static func write(_ snippets: [ZoneSnippet], to path: String, terminal: Terminal) throws {
        let domains = Array(Set(snippets.map(\.domain))).sorted { $0.name < $1.name }
        guard let domain = domains.first else {
            terminal.err("note: no zone snippet (every verified Gateway is published as it is); \(path) is not written")
            return
        }
        guard domains.count == 1 else {
            terminal.err(
                terminal.paint("error", .red, stderr: true)
                    + ": snippets for \(domains.map(\.name).joined(separator: ", ")): name one domain with --domain to write its fragment")
            throw ExitStatus.failure.code
        }
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            terminal.err(terminal.paint("error", .red, stderr: true) + ": \(path) exists and is not a regular file; nothing written")
            throw ExitStatus.failure.code
        }
        do {
            try AtomicFile.write(try ZoneSnippets.fragment(snippets, domain: domain), to: path)
        } catch {
            terminal.err(terminal.paint("error", .red, stderr: true) + ": \(path): \(error)")
            throw ExitStatus.failure.code
        }
        terminal.err("wrote \(path): records for \(domain.name) (check it with `clawnet zone check \(path)`)")
    }
}
