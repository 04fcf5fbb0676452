import TestSupport
import Testing

@testable import DNSSD

@Suite("Presentation format")
struct PresentationTests {
    @Test(
        "labels escape to printable ASCII",
        arguments: [
            ("Studio (OpenClaw)", #"Studio\032\(OpenClaw\)"#),
            ("a.b", #"a\.b"#),
            (#"back\slash"#, #"back\\slash"#),
            ("semi;colon\"quote", #"semi\;colon\"quote"#),
            ("$ORIGIN @home", #"\036ORIGIN\032\064home"#),
            ("Café", #"Caf\195\169"#),
            ("line\nbreak\ttab", #"line\010break\009tab"#),
            ("🦞", #"\240\159\166\158"#),
        ])
    func escapesLabels(decoded: String, escaped: String) throws {
        #expect(Presentation.escapeLabel(Array(decoded.utf8)) == escaped)
        #expect(try Presentation.unescapeLabel(Substring(escaped)) == Array(decoded.utf8))
    }

    @Test("escaped output never contains a byte that could break a zone line")
    func escapedOutputIsInert() {
        var random = SeededRandom()
        for _ in 0..<500 {
            let bytes = random.bytes(Int.random(in: 1...63, using: &random))
            let escaped = Presentation.escapeLabel(bytes)
            #expect(escaped.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "\(bytes), \(random.seedNote)")
            #expect(unescapedCharacters(escaped).allSatisfy { !"\\.;()\"@$ ".contains($0) }, "\(bytes), \(random.seedNote)")
        }
    }

    @Test("any bytes survive escape and unescape (property)")
    func roundTripsRandomBytes() throws {
        var random = SeededRandom()
        for _ in 0..<2000 {
            let bytes = random.bytes(Int.random(in: 1...63, using: &random))
            #expect(try Presentation.unescapeLabel(Substring(Presentation.escapeLabel(bytes))) == bytes, "\(bytes), \(random.seedNote)")
            let quoted = Presentation.quoteCharacterString(bytes)
            #expect(quoted.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(bytes), \(random.seedNote)")
        }
    }

    @Test(
        "escape errors are reported, not trapped",
        arguments: [
            #"ends\"#, #"\25"#, #"\256"#, #"\2a5"#, "un.escaped",
        ])
    func rejectsBadEscapes(text: String) {
        #expect(throws: DNSSDError.self) { try Presentation.unescapeLabel(Substring(text)) }
    }

    @Test("names split on unescaped dots only")
    func splitsNames() throws {
        let labels = try Presentation.splitName(#"Studio\032\(OpenClaw\)\.v2._openclaw-gw._tcp.local."#)
        #expect(labels.count == 4)
        #expect(String(decoding: labels[0], as: UTF8.self) == "Studio (OpenClaw).v2")
        #expect(String(decoding: labels[3], as: UTF8.self) == "local")
        #expect(try Presentation.splitName(".") == [])
        #expect(throws: DNSSDError.self) { try Presentation.splitName("a..b") }
        #expect(Presentation.joinName(labels) == #"Studio\032\(OpenClaw\)\.v2._openclaw-gw._tcp.local."#)
    }

    @Test("character-strings are quoted with escapes")
    func quotesCharacterStrings() {
        #expect(Presentation.quoteCharacterString(Array(#"say "hi" \ bye"#.utf8)) == #""say \"hi\" \\ bye""#)
        #expect(Presentation.quoteCharacterString(Array("a\nb;c".utf8)) == #""a\010b;c""#)
        #expect(Presentation.quoteCharacterString([]) == #""""#)
    }

    @Test("terminal-safe display keeps UTF-8 and escapes control and invalid bytes")
    func displaysSafely() {
        #expect(SafeText.display(Array("Café 🦞".utf8)) == "Café 🦞")
        #expect(SafeText.display([0x41, 0x1B, 0x5B, 0x32, 0x4A]) == #"A\027[2J"#)
        #expect(SafeText.display([0x41, 0xFF, 0x42, 0xC3]) == #"A\255B\195"#)
        #expect(SafeText.utf8([0xFF]) == nil)
    }
}

/// The characters of presentation text that are not part of an escape sequence.
func unescapedCharacters(_ text: String) -> [Character] {
    var result: [Character] = []
    var iterator = Array(text)[...]
    while let character = iterator.popFirst() {
        guard character == "\\" else {
            result.append(character)
            continue
        }
        if let next = iterator.popFirst(), next.isNumber { iterator = iterator.dropFirst(2) }
    }
    return result
}
