import DNSSD
import DNSUpdate
import DNSWire
import FoundationEssentials
import Glibc
import Host

/// Where `advertise --domain` keeps its `RegistrationLedger` while it runs: a restart after
/// a crash (SIGKILL, a power cut) reads what the earlier run added, adopts it, and withdraws
/// exactly that when it stops. Removed after a withdrawal the server accepted.
///
/// The folder: `$XDG_STATE_HOME/clawnet`, else `/var/lib/clawnet` for root, else
/// `~/.local/state/clawnet`, made 0700; one file per server and instance, written as clawnet
/// writes files, and read back only when this user alone could have written it (`StateFile`).
package struct LedgerFile: Sendable {
    package let path: String
    package let server: DNSServer

    /// The largest ledger read: a few records, far below this.
    static let limit = 64 << 10

    private struct Document: Codable {
        var schema = "clawnet.advertise-ledger.v1"
        var server: String
        var instance: String
        /// Records in presentation format, one zone-file line each.
        var added: [String]
        var replaced: [String]
    }

    package init(server: DNSServer, instance: DNSName, environment: [String: String]) {
        path = "\(Self.folder(environment))/wide-area-\(Self.fingerprint("\(server) \(instance)")).json"
        self.server = server
    }

    /// Where clawnet keeps its state: `$XDG_STATE_HOME/clawnet`, else `/var/lib/clawnet` for
    /// root, else `~/.local/state/clawnet`.
    static func folder(_ environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/clawnet" }
        if geteuid() == 0 { return "/var/lib/clawnet" }
        return (environment["HOME"] ?? "/tmp") + "/.local/state/clawnet"
    }

    /// FNV-1a (64 bits) of the lower-cased text: a short, stable file name. The file names its
    /// server and instance too, and a ledger of another pair is never used.
    static func fingerprint(_ text: String) -> String {
        let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x100_0000_01b3
        let hash = text.lowercased().utf8.reduce(offsetBasis) { ($0 ^ UInt64($1)) &* prime }
        return String(hash, radix: 16)
    }

    /// The ledger an earlier run left for `instance`, nil when there is none (or it is of
    /// another server or instance). Throws, saying why, when the file is not one this user
    /// alone could have written (`StateFile`): it is then neither adopted nor removed.
    package func load(instance: DNSName) throws -> RegistrationLedger? {
        guard let bytes = try StateFile.read(path, limit: Self.limit),
            let document = try? JSONDecoder().decode(Document.self, from: Data(bytes)),
            document.server == server.description, let named = try? DNSName(presentation: document.instance), named == instance
        else { return nil }
        return RegistrationLedger(instance: instance, added: Self.records(document.added), replaced: Self.records(document.replaced))
    }

    package func save(_ ledger: RegistrationLedger) throws {
        let document = Document(
            server: server.description, instance: ledger.instance.description, added: ledger.added.compactMap(Self.line),
            replaced: ledger.replaced.compactMap(Self.line))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let folder = String(path[..<path.lastIndex(of: "/")!])
        try StateFile.makeFolder(folder)
        try AtomicFile.write(String(decoding: try encoder.encode(document), as: UTF8.self) + "\n", to: path, mode: 0o600)
    }

    /// Removes the ledger, when it is this user's own (`StateFile`).
    package func remove() {
        try? StateFile.remove(path)
    }

    /// `NAME TTL IN TYPE RDATA`, as a zone file holds it.
    package static func line(_ record: DNSRecord) -> String? {
        record.data.presentation.map { "\(record.name) \(record.ttl) IN \(record.type) \($0)" }
    }

    private static func records(_ lines: [String]) -> [DNSRecord] {
        lines.flatMap { ZoneFile.read(text: $0).records }
    }
}
