import CLDNS
import DNSSD
import Glibc

/// A zone file read with ldns, record by record, so that every record and every error has
/// its line number. Reading goes on after a bad line to report all of them.
public struct ZoneFile: Sendable {
    package struct Entry: Sendable {
        /// The line the record ends on (a record in parentheses spans several).
        package let line: Int
        package let record: DNSRecord
    }

    package struct Problem: Sendable, Hashable {
        package let line: Int
        package let message: String
    }

    /// The records, held compactly and within `RecordStore.Bounds.zone`.
    package let records: RecordStore
    /// Each record's line; nil for a transferred zone, whose "line" is its place in the transfer.
    private let lines: [Int32]?
    package let problems: [Problem]
    /// The origin in effect at the end of the file.
    package let origin: DNSName?
    /// What servers accept but change (a TTL above 2^31-1 is served as 0).
    package let warnings: [Problem]

    init(records: RecordStore, lines: [Int32]?, problems: [Problem], origin: DNSName?, warnings: [Problem] = []) {
        self.records = records
        self.lines = lines
        self.problems = problems
        self.origin = origin
        self.warnings = warnings
    }

    /// The records with their lines, each made when it is read.
    package var entries: Entries { Entries(file: self) }

    package struct Entries: RandomAccessCollection, Sendable {
        let file: ZoneFile
        package var startIndex: Int { 0 }
        package var endIndex: Int { file.records.count }
        package subscript(position: Int) -> Entry { Entry(line: file.line(of: position), record: file.records[position]) }
    }

    /// The line of the record at `position`.
    package func line(of position: Int) -> Int {
        lines.map { Int($0[position]) } ?? position + 1
    }

    /// A zone as a server sent it (AXFR): each record's "line" is its place in the transfer.
    package init(transferred records: RecordStore, origin: DNSName) {
        self.init(records: records, lines: nil, problems: [], origin: origin)
    }

    /// At most this many syntax errors are collected; a file that is not a zone at all
    /// would otherwise repeat the same error for every line.
    package static let maxProblems = 50

    /// The largest TXT RDATA BIND 9.18 loads (measured: 65,511 bytes gives "ran out of space",
    /// whatever the owner); Knot takes up to 65,535.
    package static let bindMaxTXTRDATA = 65_510

    /// Reads zone text within the bounds of one zone. `origin` applies until a `$ORIGIN` line
    /// changes it. (Public for the fuzz package; the bounds are the package's own.)
    public static func read(text: String, origin: DNSName? = nil, defaultTTL: UInt32 = 3600) -> ZoneFile {
        read(bytes: Array(text.utf8), origin: origin, defaultTTL: defaultTTL, bounds: .zone)
    }

    /// Reads zone text within `bounds`.
    package static func read(text: String, origin: DNSName? = nil, defaultTTL: UInt32 = 3600, bounds: RecordStore.Bounds) -> ZoneFile {
        read(bytes: Array(text.utf8), origin: origin, defaultTTL: defaultTTL, bounds: bounds)
    }

    /// Reads a zone file's bytes (a file is read by the caller, with a size limit: see
    /// RegularFile); bytes that are not UTF-8 reach ldns unchanged. Records past `bounds`
    /// are not read: a problem on the line where they start says so.
    package static func read(bytes: [UInt8], origin: DNSName? = nil, defaultTTL: UInt32 = 3600, bounds: RecordStore.Bounds = .zone)
        -> ZoneFile
    {
        var bytes = bytes
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        let checked = ZoneTextChecks.scan(bytes)
        // Read in place: fmemopen's "r" mode never writes to the buffer, and a mutable view
        // would copy a 64 MiB zone.
        let parsed = bytes.withUnsafeBytes { buffer in
            guard let file = fmemopen(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count, "r") else {
                return ZoneFile(
                    records: RecordStore(), lines: [], problems: [Problem(line: 0, message: "cannot read the zone text")], origin: origin)
            }
            defer { fclose(file) }
            return read(file, text: UnsafeRawBufferPointer(buffer), origin: origin, defaultTTL: defaultTTL, bounds: bounds)
        }
        let problems = (parsed.problems + checked.problems).sorted { $0.line < $1.line }
        return ZoneFile(
            records: parsed.records, lines: parsed.lines, problems: Array(problems.prefix(maxProblems)), origin: parsed.origin,
            warnings: checked.warnings)
    }

    /// `text` is what `file` reads: the words for an entry ldns refused are made from it.
    private static func read(
        _ file: UnsafeMutablePointer<FILE>, text: UnsafeRawBufferPointer, origin: DNSName?, defaultTTL: UInt32, bounds: RecordStore.Bounds
    ) -> ZoneFile {
        var ttl = defaultTTL
        var currentOrigin: UnsafeMutablePointer<ldns_rdf>? = origin.flatMap { name in
            name.wire.withUnsafeBytes { ldns_dname_new_frm_data(UInt16($0.count), $0.baseAddress) }
        }
        var previous: UnsafeMutablePointer<ldns_rdf>?
        defer {
            if let currentOrigin { ldns_rdf_deep_free(currentOrigin) }
            if let previous { ldns_rdf_deep_free(previous) }
        }
        var line: Int32 = 0
        var records = RecordStore(bounds: bounds)
        var lines: [Int32] = []
        var problems: [Problem] = []
        // Every pass must consume input: a reader that stops advancing (a read error) ends.
        var position = ftell(file)
        reading: while feof(file) == 0 && ferror(file) == 0 && problems.count < maxProblems {
            var rr: UnsafeMutablePointer<ldns_rr>?
            let status = ldns_rr_new_frm_fp_l(&rr, file, &ttl, &currentOrigin, &previous, &line)
            let now = ftell(file)
            defer { position = now }
            if now == position && status != LDNS_STATUS_OK && feof(file) == 0 {
                problems.append(Problem(line: Int(line), message: "the zone text cannot be read past this line"))
                break
            }
            switch status {
            case LDNS_STATUS_OK:
                guard let rr else { continue }
                defer { ldns_rr_free(rr) }
                let count = records.count
                do throws(RecordStore.Full) { try DNSWireCodec.append(rr, to: &records) } catch {
                    problems.append(Problem(line: Int(line), message: "the zone has \(error), more than clawnet reads of one zone"))
                    break reading
                }
                if records.count > count { lines.append(line) }
            case LDNS_STATUS_SYNTAX_EMPTY, LDNS_STATUS_SYNTAX_TTL, LDNS_STATUS_SYNTAX_ORIGIN:
                continue
            case LDNS_STATUS_SYNTAX_INCLUDE:
                problems.append(Problem(line: Int(line), message: "$INCLUDE is not followed here; put every record in this file"))
            default:
                let range = max(0, min(position, text.count))..<max(0, min(now, text.count))
                let entry = String(decoding: text[range.lowerBound..<max(range.lowerBound, range.upperBound)], as: UTF8.self)
                problems.append(Problem(line: Int(line), message: ZoneEntryProblem.describe(entry, status: status)))
            }
        }
        let finalOrigin = currentOrigin.flatMap { DNSWireCodec.name($0) }
        return ZoneFile(records: records, lines: lines, problems: problems, origin: finalOrigin)
    }
}
