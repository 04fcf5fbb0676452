import DNSSD
import DNSWire

/// Keeps a zone file current: rewritten atomically only when its content (serial aside)
/// changed, and then with the next serial.
public enum ZoneFileUpdate {
    public struct Outcome: Sendable {
        public let path: String
        public let serial: UInt32
        public let previousSerial: UInt32?
        public let changed: Bool
        public let notes: [String]
    }

    public static func write(_ content: ZoneContent, to path: String, today: SerialPolicy.Day) throws -> Outcome {
        let existing = AtomicFile.read(path)
        let previousSerial = existing.flatMap(soaSerial)
        if let existing, let previousSerial {
            let same = try ZoneWriter.render(content, serial: previousSerial)
            if same.text == existing {
                return Outcome(path: path, serial: previousSerial, previousSerial: previousSerial, changed: false, notes: same.notes)
            }
        }
        let serial = SerialPolicy.next(after: previousSerial, today: today)
        let rendered = try ZoneWriter.render(content, serial: serial)
        try AtomicFile.write(rendered.text, to: path)
        return Outcome(path: path, serial: serial, previousSerial: previousSerial, changed: true, notes: rendered.notes)
    }

    /// The serial of the first SOA record in zone text.
    public static func soaSerial(_ text: String) -> UInt32? {
        for record in ZoneFile.read(text: text).records {
            if case .soa(_, _, let serial, _, _, _, _) = record.data { return serial }
        }
        return nil
    }
}
