import DNSSD
import DNSWire
import Host

/// Keeps a zone file current: rewritten atomically only when its content (serial aside)
/// changed, and then with the next serial.
public enum ZoneFileUpdate {
    public struct Outcome: Sendable {
        public let path: String
        public let serial: UInt32
        public let previousSerial: UInt32?
        public let changed: Bool
        public let notes: [String]
        /// The text to write when `changed`, and what the file held before (nil: no file).
        public let text: String
        public let previous: [UInt8]?
    }

    /// What writing `content` to `path` would do, without writing, given what the file holds
    /// (`existing`, read by the `AtomicFile.Replacement` that will replace it): its serial is
    /// read and compared; a file with content clawnet did not write is refused
    /// (`ZoneWriter.wrote(_:for:)`; empty is fine).
    static func prepare(_ content: ZoneContent, at path: String, existing: [UInt8]?, today: SerialPolicy.Day) throws -> Outcome {
        if let existing, !existing.isEmpty, !ZoneWriter.wrote(existing, for: content) {
            throw ZoneError(
                "\(path) holds content clawnet did not write (a zone of another domain, or records zone generate does not write); "
                    + "it is not replaced",
                fix: "move it away or give --out a new path; to change a zone a server already serves, use `clawnet zone push`")
        }
        let previousSerial = existing.flatMap { soaSerial($0) }
        if let existing, let previousSerial {
            let same = try ZoneWriter.render(content, serial: previousSerial)
            if Array(same.text.utf8) == existing {
                return Outcome(
                    path: path, serial: previousSerial, previousSerial: previousSerial, changed: false, notes: same.notes, text: same.text,
                    previous: existing)
            }
        }
        let serial = SerialPolicy.next(after: previousSerial, today: today)
        let rendered = try ZoneWriter.render(content, serial: serial)
        return Outcome(
            path: path, serial: serial, previousSerial: previousSerial, changed: true, notes: rendered.notes, text: rendered.text,
            previous: existing)
    }

    /// `prepare`, then the file written when it changed.
    public static func write(_ content: ZoneContent, to path: String, today: SerialPolicy.Day) throws -> Outcome {
        let target = try AtomicFile.Replacement(path, limit: FileLimit.zone)
        let outcome = try prepare(content, at: path, existing: target.existing, today: today)
        if outcome.changed { try target.write(Array(outcome.text.utf8)) }
        return outcome
    }

    /// The serial of the first SOA record in zone text.
    public static func soaSerial(_ text: String) -> UInt32? {
        soaSerial(Array(text.utf8))
    }

    static func soaSerial(_ bytes: [UInt8]) -> UInt32? {
        for record in ZoneFile.read(bytes: bytes).records {
            if case .soa(_, _, let serial, _, _, _, _) = record.data { return serial }
        }
        return nil
    }
}
