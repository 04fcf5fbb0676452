import DNSSD
import DNSWire
import Host

/// Keeps a zone file current: rewritten atomically only when its records (serial aside)
/// changed, and then with the next serial. A file OpenClaw's Gateway wrote is kept the same way
/// (its layout is the one clawnet writes, under its content-hash comment), so that both can keep
/// one file without bumping its serial for nothing.
package enum ZoneFileUpdate {
    package struct Outcome: Sendable {
        package let path: String
        package let serial: UInt32
        package let previousSerial: UInt32?
        package let changed: Bool
        package let notes: [ZoneNote]
        /// The text to write when `changed`, and what the file held before (nil: no file).
        package let text: String
        package let previous: [UInt8]?
    }

    /// What writing `content` to `path` would do, without writing, given what the file holds
    /// (`existing`, read by the `AtomicFile.Replacement` that will replace it): its serial is
    /// read and continued; a file with content neither clawnet nor OpenClaw's Gateway writes is
    /// refused (`ZoneWriter.wrote(_:for:)`; empty is fine). A file with the same records as
    /// the ones to write is left as it is, as the Gateway leaves a file whose hash it matches:
    /// its text may differ (the Gateway writes UTF-8 where clawnet writes `\DDD`).
    static func prepare(_ content: ZoneContent, at path: String, existing: [UInt8]?, today: SerialPolicy.Day) throws -> Outcome {
        if let existing, !existing.isEmpty, !ZoneWriter.wrote(existing, for: content) {
            throw ZoneError(.zoneFileForeign(path: path))
        }
        let previousSerial = existing.flatMap { soaSerial($0) }
        if let existing, let previousSerial {
            let same = try ZoneWriter.renderFile(content, serial: previousSerial)
            if records(existing) == records(Array(same.text.utf8)) {
                return Outcome(
                    path: path, serial: previousSerial, previousSerial: previousSerial, changed: false, notes: same.notes, text: same.text,
                    previous: existing)
            }
        }
        let serial = SerialPolicy.next(after: previousSerial, today: today)
        let rendered = try ZoneWriter.renderFile(content, serial: serial)
        return Outcome(
            path: path, serial: serial, previousSerial: previousSerial, changed: true, notes: rendered.notes, text: rendered.text,
            previous: existing)
    }

    /// The records zone text holds, in no order.
    private static func records(_ bytes: [UInt8]) -> Set<DNSRecord> {
        Set(ZoneFile.read(bytes: bytes, defaultTTL: UInt32(ZoneWriter.ttl)).records)
    }

    /// `prepare`, then the file written when it changed.
    package static func write(_ content: ZoneContent, to path: String, today: SerialPolicy.Day) throws -> Outcome {
        let target = try AtomicFile.Replacement(path, limit: FileLimit.zone)
        let outcome = try prepare(content, at: path, existing: target.existing, today: today)
        if outcome.changed { try target.write(Array(outcome.text.utf8)) }
        return outcome
    }

    /// The serial of the first SOA record in zone text.
    package static func soaSerial(_ text: String) -> UInt32? {
        soaSerial(Array(text.utf8))
    }

    static func soaSerial(_ bytes: [UInt8]) -> UInt32? {
        for record in ZoneFile.read(bytes: bytes).records {
            if case .soa(_, _, let serial, _, _, _, _) = record.data { return serial }
        }
        return nil
    }
}
