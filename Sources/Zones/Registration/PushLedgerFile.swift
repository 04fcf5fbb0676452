import DNSSD
import DNSUpdate
import DNSWire
import FoundationEssentials
import Host

/// Where `zone push` keeps its `PushLedger` of one zone on one server between runs: in the
/// folder of `LedgerFile` (`$XDG_STATE_HOME/clawnet`, `/var/lib/clawnet` for root, else
/// `~/.local/state/clawnet`), one file per server, zone and service type, read back only when
/// this user alone could have written it (`StateFile`). A file of another server or zone, or
/// one that does not parse, is no ledger: the push then plans as for a first push.
package struct PushLedgerFile: Sendable {
    package let path: String
    let folder: String
    package let server: DNSServer
    package let zone: DNSName
    package let service: DNSName

    static let schema = "clawnet.push-ledger.v1"

    /// The largest ledger read: about 150 bytes a record, as many as a zone holds.
    static let limit = RecordStore.Bounds.zone.bytes * 2

    private struct Document: Codable {
        var schema = PushLedgerFile.schema
        var server: String
        var zone: String
        var service: String
        var serial: UInt32
        /// The records as the update sections of UPDATE messages, in base64 (`encode`).
        var records: [String]
    }

    /// Records per message of `encode`.
    static let recordsPerMessage = 500

    package init(server: DNSServer, zone: DNSName, service: DNSName, environment: [String: String]) {
        folder = LedgerFile.folder(environment)
        path = "\(folder)/zone-push-\(LedgerFile.fingerprint("\(server) \(zone) \(service)")).json"
        self.server = server
        self.zone = zone
        self.service = service
    }

    /// The ledger the last push left, nil when there is none (or it is of another server, zone
    /// or service, or does not parse). Throws, saying why, when the file is not one this user
    /// alone could have written (`StateFile`): it is then neither used nor replaced.
    package func load() throws -> PushLedger? {
        guard let bytes = try StateFile.read(path, limit: Self.limit),
            let document = try? JSONDecoder().decode(Document.self, from: Data(bytes)),
            document.schema == Self.schema,
            document.server == server.description, document.zone == zone.description, document.service == service.description
        else { return nil }
        guard let records = Self.decode(document.records) else { return nil }
        return PushLedger(zone: zone, service: service, serial: document.serial, records: records)
    }

    package func save(_ ledger: PushLedger) throws {
        guard let records = Self.encode(ledger.records, zone: zone) else { return remove() }
        let document = Document(
            server: server.description, zone: zone.description, service: service.description, serial: ledger.serial, records: records)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try StateFile.makeFolder(folder)
        // Not flushed to disk: a ledger a power cut lost or cut short is no ledger, or an older one
        // whose serial the server no longer serves; either way the next push reads.
        try AtomicFile.write(String(decoding: try encoder.encode(document), as: UTF8.self) + "\n", to: path, mode: 0o600, durable: false)
    }

    /// Removes the ledger, when it is this user's own (`StateFile`): the next push reads.
    package func remove() {
        try? StateFile.remove(path)
    }

    /// The records in DNS's wire form: the update sections of UPDATE messages (RFC 2136), each
    /// in base64. Zone-file lines would not do: ldns reads an owner's text into 255 characters
    /// (a label of 63 bytes written as `\DDD` is past that), and reads a PTR target `\064` as
    /// the origin. Nil when they cannot be encoded.
    static func encode(_ records: [DNSRecord], zone: DNSName) -> [String]? {
        var messages: [String] = []
        for start in stride(from: 0, to: records.count, by: recordsPerMessage) {
            let updates = records[start..<min(start + recordsPerMessage, records.count)].map {
                UpdateRecord(name: $0.name, type: $0.type, rrClass: .inet, ttl: $0.ttl, data: $0.data)
            }
            guard let wire = try? DNSWireCodec.update(zone: zone, prerequisites: [], updates: updates, id: 0) else { return nil }
            messages.append(Data(wire).base64EncodedString())
        }
        return messages
    }

    /// `encode`'s records; nil when a message does not decode.
    static func decode(_ messages: [String]) -> [DNSRecord]? {
        var records: [DNSRecord] = []
        for message in messages {
            guard let wire = Data(base64Encoded: message), let decoded = try? DNSWireCodec.decode(Array(wire)) else { return nil }
            records += decoded.authority
        }
        return records
    }
}
