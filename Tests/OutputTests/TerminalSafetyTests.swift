import DNSSD
import Foundation
import TestSupport
import Testing

@testable import Discovery
@testable import Doctor
@testable import Output
@testable import Zones

/// Text from the network reaches the terminal only through `Terminal.render`: control
/// characters escaped, clawnet's own colours kept; JSON keeps exact values and escapes what a
/// terminal would act on.
@Suite("Terminal safety: rendered lines and JSON")
struct TerminalSafetyTests {
    /// Clear screen, window title, cursor home, bell, C1 CSI, a line break and a fake line, DEL.
    static let hostile = "\u{1B}[2J\u{1B}]0;owned\u{07}\u{1B}[H\u{9B}31m\r\nPASS  gw.everything  all good\u{7F}\u{202E}doog\u{2066}"

    static let colourTerminal = Terminal(color: true, stdoutIsTTY: true, stderrIsTTY: true)

    /// Control characters in a rendered line that are not one of clawnet's SGR sequences
    /// (compared scalar by scalar: a combining mark after `m` must not hide a sequence).
    static func strayControls(_ line: String) -> [Unicode.Scalar] {
        let codes = ["0", "1", "2", "31", "32", "33", "36"].map { Array("\u{1B}[\($0)m".unicodeScalars) }
        let scalars = Array(line.unicodeScalars)
        var stray: [Unicode.Scalar] = []
        var index = 0
        while index < scalars.count {
            if let code = codes.first(where: { scalars[index...].starts(with: $0) }) {
                index += code.count
                continue
            }
            if SafeText.mustEscape(scalars[index]) { stray.append(scalars[index]) }
            index += 1
        }
        return stray
    }

    @Test("every control character in a line is escaped, the line break too; plain text is untouched")
    func escapes() {
        let rendered = Self.colourTerminal.render("instance " + Self.hostile)
        #expect(Self.strayControls(rendered).isEmpty, "\(rendered.debugDescription)")
        #expect(!rendered.unicodeScalars.contains(where: SafeText.isControl))
        #expect(rendered.contains("\\027[2J") && rendered.contains("\\013\\010PASS") && rendered.contains("\\155"))
        #expect(Self.colourTerminal.render("Studio (OpenClaw) → ✓") == "Studio (OpenClaw) → ✓")
    }

    @Test("the quick byte check never lets a control character or a colour marker's scalar through unrendered")
    func quickCheckIsSound() {
        let scalars = (0..<0x20).map { $0 } + [0x7F] + (0x80..<0xA0).map { $0 } + [0xF0000, 0xF1234, 0xFFFFD]
        let missed = scalars.filter { !Terminal.mayNeedRendering("plain text " + String(Unicode.Scalar($0)!) + " more") }
        #expect(missed.isEmpty, "not flagged: \(missed.map { String($0, radix: 16) })")
        #expect(!Terminal.mayNeedRendering(#"{"name":"Studio (OpenClaw) → ✓","txt":"a\u001b"}"#))
    }

    @Test("clawnet's colours survive rendering; an escape sequence in outside text, or a forged marker, does not")
    func colours() {
        let terminal = Self.colourTerminal
        let line = terminal.paint("PASS", .green) + "  " + Self.hostile + " \u{1B}[31mred\u{1B}[0m"
        let rendered = terminal.render(line)
        #expect(rendered.hasPrefix("\u{1B}[32mPASS\u{1B}[0m  \\027[2J"), "\(rendered.debugDescription)")
        #expect(Self.strayControls(rendered).isEmpty, "\(rendered.debugDescription)")
        #expect(rendered.components(separatedBy: "\u{1B}").count == 3, "only the two codes paint added: \(rendered.debugDescription)")

        // Another run's markers (another key) are plain text here.
        let other = Terminal(color: true, stdoutIsTTY: true, stderrIsTTY: true)
        let forged = terminal.render(other.paint("x", .red))
        #expect(!forged.contains("\u{1B}"), "\(forged.debugDescription)")
        // Without a terminal, nothing is painted at all.
        #expect(Terminal(color: true, stdoutIsTTY: false, stderrIsTTY: false).paint("x", .red) == "x")
    }

    @Test("random text with painted pieces: only the painted codes come out as control characters")
    func randomText() {
        var random = SeededRandom()
        let terminal = Self.colourTerminal
        for _ in 0..<300 {
            var line = ""
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                if Bool.random(using: &random) {
                    line += terminal.paint("ok", .yellow)
                } else {
                    let scalars = (0..<Int.random(in: 0...8, using: &random)).compactMap { _ -> Unicode.Scalar? in
                        let pick = Int.random(in: 0...3, using: &random)
                        let value =
                            pick == 0 ? UInt32.random(in: 0...0xA0, using: &random) : UInt32.random(in: 0...0x10FFFF, using: &random)
                        return Unicode.Scalar(value)
                    }
                    line += String(String.UnicodeScalarView(scalars))
                }
            }
            let rendered = terminal.render(line)
            #expect(Self.strayControls(rendered).isEmpty, "\(line.debugDescription) → \(rendered.debugDescription); \(random.seedNote)")
        }
    }

    @Test("clawnet's own multi-line text splits at its newlines; nothing else does")
    func linesOf() {
        #expect(Terminal.lines(of: "a\nb\n") == ["a", "b"])
        #expect(Terminal.lines(of: "a\n\nb") == ["a", "", "b"])
    }

    @Test("Splitting over the bytes cuts where splitting by Characters does: a CR LF pair is one Character, not a line end")
    func linesOfAsCharacters() {
        let texts = ["", "\n", "\n\n", "a", "a\r\nb", "a\r\n", "\r\n\n", "a\rb\nc", "é\n\u{301}x\n", "🦞\n🦞\r\n🦞\n", "\n\u{1B}[2K\nz"]
        for text in texts {
            var expected = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if text.hasSuffix("\n") { expected.removeLast() }
            #expect(Terminal.lines(of: text) == expected, "\(text.debugDescription)")
        }
    }

    @Test("JSON keeps exact values, with DEL and C1 escaped as \\u00XX like the C0 controls")
    func json() throws {
        var beacon = ReportTests.beacon()
        beacon.discoveryWarnings = [Self.hostile]
        let text = try JSONOutput.pretty(ReportTests.browse(beacons: [beacon]))
        #expect(!text.unicodeScalars.contains { SafeText.mustEscape($0) && $0 != "\n" }, "\(text.debugDescription)")
        #expect(text.contains("\\u009b31m") && text.contains("\\u007f") && text.contains("\\u202edoog\\u2066"))
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let warnings = ((object?["beacons"] as? [[String: Any]])?.first?["warnings"] as? [String]) ?? []
        #expect(warnings.contains(Self.hostile), "\(warnings)")
    }

    @Test("every report's table, with outside text in every field, renders without a stray control character")
    func reports() throws {
        let terminal = Self.colourTerminal
        var beacon = GatewayBeacon(
            instance: try InstanceName(bytes: Array(Self.hostile.utf8.prefix(40))), serviceType: .gateway, domain: .local, source: .mdns,
            interfaces: [Self.hostile], host: Self.hostile, port: 18789, addresses: [], txt: try TXTRecord(pairs: [("role", Self.hostile)]))
        beacon.resolvers = [Self.hostile]
        let issue = DiscoveryIssue(
            source: .unicast, kind: .dnsError,
            .ptrUnanswered(service: Self.hostile, type: Self.hostile, explanation: Self.hostile, answer: .failed(fix: Self.hostile)),
            domain: Self.hostile)
        let check = ReportTests.said(.gwHTTP, .fail, message: Self.hostile, fix: Self.hostile)
        let doctor = DoctorResult(
            status: .fail, checks: [check],
            gateways: [DoctorResult.Gateway(target: Self.hostile, beacon: beacon, checks: [check])],
            diagnosis: [], elapsed: .seconds(1))
        let zone = ZoneCheck.Result(
            file: Self.hostile, servers: [Self.hostile], apex: nil, status: .fail,
            findings: [Finding(.fail, line: 3, .syntax(Self.hostile)), Finding(.warn, .transferPastBound(Self.hostile))])
        let preflight = PreflightReport(
            requirements: [
                Preflight.Result(name: .gateway, ok: false, .gatewayFailed(target: Self.hostile, check))
            ],
            elapsed: .zero)
        let tables: [Lines] = [
            ReportTests.browse(beacons: [beacon], issues: [issue]).table(terminal), DoctorReport(doctor).table(terminal),
            ZoneCheckReport(zone).table(terminal), preflight.table(terminal),
            DiscoveryEventLine(.added(beacon), elapsed: .zero).table(terminal, collection: BeaconCollection()),
        ]
        for lines in tables {
            for line in (lines.out + lines.err).map(terminal.render) {
                #expect(Self.strayControls(line).isEmpty, "\(line.debugDescription)")
            }
        }
    }
}
