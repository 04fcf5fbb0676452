import DNSSD
import DNSWire
import TestSupport
import Testing

@testable import DNSClient
@testable import DNSUpdate

/// The transfer reader on a recorded AXFR: BIND 9.18 serving a zone of 48 records with
/// `transfer-message-size 512`, so that it comes in four messages (recorded over TCP with a
/// query of id 0xABCD, each message without its length prefix). Each message is parsed as it
/// arrives, its records go into a bounded store, and a transfer past the bound stops there.
@Suite("Zone transfer: messages parsed as they arrive, within a bound")
struct TransferReaderTests {
    static func hex(_ parts: String...) -> [UInt8] {
        let text = parts.joined()
        return stride(from: 0, to: text.count, by: 2).map { offset in
            let start = text.index(text.startIndex, offsetBy: offset)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    static let messages: [[UInt8]] = [
        hex(
            "abcd840000010007000000000372656308696e7465726e616c0000fc0001c00c000600010000003c0027036e7331c00c0a686f73746d6173746572c0",
            "0c78c405f500001c2000000e10001275000000003cc00c000200010000003c0002c02a0c5f6f70656e636c61772d6777045f7463700372656308696e",
            "7465726e616c00000c00010000003c00141153747564696f20284f70656e436c617729c05fc089002100010000003c001b0000000049650673747564",
            "696f0372656308696e7465726e616c00c089001000010000003c00310c726f6c653d676174657761791167617465776179506f72743d313837383911",
            "7472616e73706f72743d67617465776179c02a000100010000003c000464400035c0af000100010000003c000464400001"
        ),
        hex(
            "abcd84000000000f000000000673747564696f0372656308696e7465726e616c00001c00010000003c0010fd7a115ca1e00000000000000000000104",
            "74303030c013000100010000003c00040a0000000474303031c013000100010000003c00040a0000010474303032c013000100010000003c00040a00",
            "00020474303033c013000100010000003c00040a0000030474303034c013000100010000003c00040a0000040474303035c013000100010000003c00",
            "040a0000050474303036c013000100010000003c00040a0000060474303037c013000100010000003c00040a0000070474303038c013000100010000",
            "003c00040a0000080474303039c013000100010000003c00040a0000090474303130c013000100010000003c00040a00000a0474303131c013000100",
            "010000003c00040a00000b0474303132c013000100010000003c00040a00000c0474303133c013000100010000003c00040a00000d"
        ),
        hex(
            "abcd8400000000100000000004743031340372656308696e7465726e616c00000100010000003c00040a00000e0474303135c011000100010000003c",
            "00040a00000f0474303136c011000100010000003c00040a0000100474303137c011000100010000003c00040a0000110474303138c0110001000100",
            "00003c00040a0000120474303139c011000100010000003c00040a0000130474303230c011000100010000003c00040a0000140474303231c0110001",
            "00010000003c00040a0000150474303232c011000100010000003c00040a0000160474303233c011000100010000003c00040a0000170474303234c0",
            "11000100010000003c00040a0000180474303235c011000100010000003c00040a0000190474303236c011000100010000003c00040a00001a047430",
            "3237c011000100010000003c00040a00001b0474303238c011000100010000003c00040a00001c0474303239c011000100010000003c00040a00001d"
        ),
        hex(
            "abcd84000000000b0000000004743033300372656308696e7465726e616c00000100010000003c00040a00001e0474303331c011000100010000003c",
            "00040a00001f0474303332c011000100010000003c00040a0000200474303333c011000100010000003c00040a0000210474303334c0110001000100",
            "00003c00040a0000220474303335c011000100010000003c00040a0000230474303336c011000100010000003c00040a0000240474303337c0110001",
            "00010000003c00040a0000250474303338c011000100010000003c00040a0000260474303339c011000100010000003c00040a000027c01100060001",
            "0000003c0027036e7331c0110a686f73746d6173746572c01178c405f500001c2000000e10001275000000003c"
        ),
    ]

    static let zone = try! DNSName(presentation: "rec.internal.")

    func reader(bounds: RecordStore.Bounds = .zone) -> TransferReader {
        TransferReader(
            zone: Self.zone, server: DNSServer(address: IPAddress("127.0.0.1")!, port: 5499), key: nil, id: 0xABCD,
            records: RecordStore(bounds: bounds), verifier: nil, clock: { 0 })
    }

    /// Feeds `messages` in order; the serial when the transfer completed, or the failure.
    func feed(_ messages: [[UInt8]], to reader: inout TransferReader) -> Result<UInt32?, UpdateFailure> {
        for (index, message) in messages.enumerated() {
            do throws(UpdateFailure) {
                if let serial = try reader.read(message, first: index == 0) { return .success(serial) }
            } catch {
                return .failure(error)
            }
        }
        return .success(nil)
    }

    @Test("four messages: complete at the closing SOA, every record once, the closing SOA dropped")
    func complete() throws {
        var reader = reader()
        for message in Self.messages.dropLast() {
            #expect(try reader.read(message, first: message == Self.messages[0]) == nil, "complete before the closing SOA")
        }
        #expect(try reader.read(Self.messages[3], first: false) == 2_026_112_501)
        let records = reader.records
        #expect(records.count == 48, "\(records.count) records")
        #expect(records.type(at: 0) == .soa && !records.dropFirst().contains { $0.type == .soa })
        let instance = try DNSName(presentation: #"Studio\032\(OpenClaw\)._openclaw-gw._tcp.rec.internal."#)
        #expect(records.contains { $0.data == .ptr(instance) })
        #expect(records.contains { $0.name == instance && $0.type == .srv })
        #expect(records.filter { $0.type == .a }.count == 42)
    }

    @Test("past the record bound the transfer stops with a failure naming the bound and what to do")
    func pastTheBound() {
        var reader = reader(bounds: .init(records: 30, bytes: 1 << 20))
        guard case .failure(let failure) = feed(Self.messages, to: &reader) else {
            Issue.record("a transfer of 48 records passed a bound of 30")
            return
        }
        #expect(failure.reason == .tooLarge)
        #expect(failure.message.contains("holds more than 30 records") && failure.message.contains("(30 records, 1 MiB)"), "\(failure)")
        #expect(failure.fix?.contains("zone check --server") == true, "\(failure)")
        #expect(reader.records.count <= 30)
        var bytes = self.reader(bounds: .init(records: 1000, bytes: 600))
        guard case .failure(let byBytes) = feed(Self.messages, to: &bytes) else {
            Issue.record("a transfer of about 1.3 KB passed a bound of 600 bytes")
            return
        }
        #expect(byBytes.reason == .tooLarge && byBytes.message.contains("more than 600 bytes of records"), "\(byBytes)")
    }

    @Test("out of order, another id, cut short or a changed closing serial: each a transport failure that says which")
    func brokenTransfers() {
        var late = reader()
        #expect(message(feed([Self.messages[1]], to: &late))?.contains("does not start with the SOA of rec.internal.") == true)
        var other = reader()
        var wrongID = Self.messages[0]
        wrongID[1] = 0xCE
        #expect(message(feed([wrongID], to: &other))?.contains("for another question") == true)
        var cut = reader()
        #expect(message(feed([Array(Self.messages[0].prefix(100))], to: &cut))?.contains("malformed transfer message") == true)
        var changed = reader()
        var last = Self.messages[3]
        let serial: [UInt8] = [0x78, 0xC4, 0x05, 0xF5]
        let at = (0...(last.count - 4)).last { Array(last[$0..<($0 + 4)]) == serial }!
        last[at + 3] = 0xF6
        #expect(message(feed(Array(Self.messages.dropLast()) + [last], to: &changed))?.contains("ended with serial 2026112502") == true)
    }

    func message(_ result: Result<UInt32?, UpdateFailure>) -> String? {
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure, got \(result)")
            return nil
        }
        #expect(failure.reason == .transport, "\(failure)")
        return failure.message
    }
}
