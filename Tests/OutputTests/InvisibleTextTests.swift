import DNSSD
import Foundation
import TestSupport
import Testing

@testable import Output

/// Bidi overrides, isolates, zero-width and other format characters from a stranger's name or
/// TXT value reach the terminal escaped (`\DDD` per UTF-8 byte), never raw: raw, they make one
/// name render as another (Trojan Source). JSON keeps the exact value as `\uXXXX`.
@Suite("Invisible characters: escaped on the terminal, exact in JSON")
struct InvisibleTextTests {
    /// The characters an outside attack used, and the rest of their kind.
    static let invisible: [UInt32] =
        [0x202E, 0x202A, 0x202B, 0x202C, 0x202D, 0x2066, 0x2067, 0x2068, 0x2069, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F]
        + [0x2028, 0x2029, 0xFEFF, 0x061C, 0x00AD, 0x2060, 0x2064, 0x180E, 0xFFF9, 0x110BD, 0x1D173, 0xE0001, 0xE0041, 0xE007F]

    /// `\DDD` for each UTF-8 byte of `scalar`.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        String(scalar).utf8.map { "\\" + String(repeating: "0", count: 3 - String($0).count) + String($0) }.joined()
    }

    @Test("each one is escaped by SafeText, by the terminal, and counted at its escape's width", arguments: invisible)
    func escaped(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let text = "Studio" + String(scalar) + "(OpenClaw)"
        let expected = "Studio" + Self.escape(scalar) + "(OpenClaw)"
        #expect(SafeText.isInvisible(scalar) && SafeText.mustEscape(scalar))
        #expect(SafeText.display(Array(text.utf8)) == expected)
        #expect(SafeText.line(text) == expected)
        let terminal = Terminal(color: false, stdoutIsTTY: true, stderrIsTTY: true)
        #expect(terminal.render(text) == expected, "\(terminal.render(text).debugDescription)")
        #expect(displayWidth(text) == expected.count, "width of \(expected)")
        let json = try JSONOutput.compact(["name": text])
        #expect(!json.unicodeScalars.contains(scalar), "\(json.debugDescription)")
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(decoded["name"] == text, "\(json)")
    }

    @Test("every scalar SafeText escapes is flagged by the quick byte checks of the terminal and JSON")
    func quickChecksAreSound() throws {
        var missed: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), SafeText.mustEscape(scalar) else { continue }
            let text = "a" + String(scalar) + "b"
            if !Terminal.mayNeedRendering(text) { missed.append(String(value, radix: 16)) }
            if try JSONOutput.compact([text]).unicodeScalars.contains(scalar) { missed.append("json " + String(value, radix: 16)) }
        }
        #expect(missed.isEmpty, "not escaped: \(missed.prefix(20))")
    }

    @Test("random text: nothing to escape survives rendering, and JSON gives it back exactly")
    func randomText() throws {
        var random = SeededRandom()
        let terminal = Terminal(color: false, stdoutIsTTY: true, stderrIsTTY: true)
        for _ in 0..<300 {
            let scalars = (0..<Int.random(in: 1...16, using: &random)).compactMap { _ -> Unicode.Scalar? in
                Bool.random(using: &random)
                    ? Unicode.Scalar(Self.invisible.randomElement(using: &random)!)
                    : Unicode.Scalar(UInt32.random(in: 0x20...0x10FFFF, using: &random))
            }
            let text = String(String.UnicodeScalarView(scalars))
            let rendered = terminal.render(text)
            #expect(!rendered.unicodeScalars.contains(where: SafeText.mustEscape), "\(text.debugDescription); \(random.seedNote)")
            let json = try JSONOutput.pretty(["t": text])
            let decoded = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
            #expect(decoded["t"] == text, "\(text.debugDescription); \(random.seedNote)")
        }
    }

    @Test("a name reordered by U+202E shows its escape in browse's table, and the columns after it line up")
    func browseTable() throws {
        let stranger = GatewayBeacon(
            instance: try InstanceName(decoded: "Studio\u{202E})walCnepO(\u{202C}"), serviceType: .gateway, domain: .local,
            source: .mdns, host: "evil.local.", port: 18789, addresses: [IPAddress("192.168.1.66")!],
            txt: try TXTRecord(pairs: [("role", "gateway")]))
        var honest = stranger
        honest.instance = try InstanceName(decoded: "Studio (OpenClaw)")
        let terminal = Terminal(color: false, stdoutIsTTY: false, stderrIsTTY: false)
        let lines = BeaconTable.lines([honest, stranger], terminal: terminal).map(terminal.render)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines[2].hasPrefix("Studio\\226\\128\\174)walCnepO(\\226\\128\\172  "), "\(lines[2])")
        // Rendered, the escapes are ASCII: characters are columns.
        let columns = lines.map { line in line.range(of: "ADDRESSES").map { line.distance(from: line.startIndex, to: $0.lowerBound) } }
        let addresses = lines.dropFirst().map { line in
            line.range(of: "192.168.1.66").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        }
        #expect(Set(addresses).count == 1 && addresses.first == columns.first, "ADDRESSES at \(columns), rows at \(addresses): \(lines)")
    }
}
