import DNSSD
import DNSWire

extension UpdatePlan {
    /// The plan as nsupdate input (`zone push --dry-run`): comments, server, zone, then each
    /// change set and `send`. The key is named by its file, never written: nsupdate reads it with -k.
    package func nsupdateScript(server: DNSServer, zone: DNSName, key: TSIGKey?) -> String {
        var lines = [
            "; clawnet zone push --dry-run for \(zone)",
            "; apply with: nsupdate \(key.map { "-k \(Self.keyFileWord($0)) " } ?? "")< this file",
            "server \(server.address) \(server.port)",
            "zone \(zone)",
        ]
        // What replaces records someone else may have written, said before the commands do it.
        for change in changes {
            guard case .host(let sets) = change.kind else { continue }
            lines += sets.filter { !$0.before.isEmpty }.map { "; host \(change.name) \($0)" }
        }
        for changeSet in changeSets {
            lines += changeSet.nsupdateLines
            lines.append("send")
        }
        return lines.joined(separator: "\n")
    }

    /// The key's file as one shell word (single-quoted unless it is plain), or a placeholder
    /// for a key made in code.
    static func keyFileWord(_ key: TSIGKey) -> String {
        guard let file = key.file else { return "<the key file of \(key.name)>" }
        return ShellWord.quoted(file)
    }
}
