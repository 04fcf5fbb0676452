import DNSSD
import Foundation
import Testing

@testable import Doctor
@testable import Output

/// Doctor's and preflight's reports from recorded scenes, as a user reads them (the table on
/// stdout and stderr) and as a script reads them (the JSON), compared byte for byte with the
/// files in Golden/. After a change meant to alter the words, run with CLAWNET_RECORD_GOLDEN=1
/// to write the files again, and read their diff.
@Suite("Golden reports from recorded scenes")
struct DoctorGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let recording = ProcessInfo.processInfo.environment["CLAWNET_RECORD_GOLDEN"] == "1"

    /// The table as the terminal prints it (without colour), stdout then stderr.
    static func text(_ report: some Report) -> String {
        let terminal = Terminal(color: false, stdoutIsTTY: false, stderrIsTTY: false)
        let lines = report.table(terminal)
        let err = lines.err + [report.summary(terminal, exit: report.exitStatus.rawValue)].compactMap { $0 }
        return (lines.out.map(terminal.render) + ["--- stderr"] + err.map(terminal.render)).joined(separator: "\n") + "\n"
    }

    static func compare(_ produced: String, file name: String) throws {
        // Nothing a terminal acts on or hides (U+202E, U+200B...) in a report, whoever wrote the text.
        let raw = produced.unicodeScalars.filter { SafeText.mustEscape($0) && $0 != "\n" }
        #expect(raw.isEmpty, "\(name) holds raw \(raw.map { "U+" + String($0.value, radix: 16, uppercase: true) })")
        let url = directory.appendingPathComponent(name)
        if recording {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(produced.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        guard produced != expected else { return }
        let new = produced.split(separator: "\n", omittingEmptySubsequences: false)
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(new.count, old.count)).first { new[$0] != old[$0] } ?? min(new.count, old.count)
        Issue.record(
            """
            \(name) differs from its golden file at line \(line + 1):
              golden: \(line < old.count ? String(old[line]) : "<end>")
              now:    \(line < new.count ? String(new[line]) : "<end>")
            """)
    }

    @Test("doctor's table and JSON for each recorded scene are the golden ones", arguments: GoldenScene.all.map(\.name))
    func doctor(name: String) throws {
        let scene = try #require(GoldenScene.all.first { $0.name == name })
        let report = DoctorReport(scene.result())
        try Self.compare(Self.text(report), file: "doctor-\(name).txt")
        try Self.compare(try JSONOutput.pretty(report) + "\n", file: "doctor-\(name).json")
    }

    static let preflights: [(String, GoldenScene, Set<Preflight.Requirement>)] = [
        ("mdns", .healthy, [.mdns]),
        ("mdns-no-bus", .noBus, [.mdns]),
        ("mdns-no-daemon", .noDaemon, [.mdns, .wideArea]),
        ("mdns-no-interface", .noInterfaceUp, [.mdns]),
        ("wide-area", .hostAnswers, [.wideArea, .gateway]),
        ("wide-area-failing", .wideArea, [.wideArea]),
        ("gateway", .healthy, [.gateway]),
        ("gateway-failing", .tcp, [.gateway]),
        ("gateway-pinned", .pinAndCertificate, [.gateway]),
        // Not a yes when the certificate is not the one the beacon advertises, as doctor and watch say.
        ("gateway-advertised-other", .advertisedOther, [.gateway]),
        ("no-gateway", .noDaemon, [.gateway]),
    ]

    @Test("preflight's table and JSON for each recorded scene are the golden ones", arguments: preflights.map(\.0))
    func preflight(name: String) throws {
        let (_, scene, requirements) = try #require(Self.preflights.first { $0.0 == name })
        let report = scene.preflight(requirements)
        try Self.compare(Self.text(report), file: "preflight-\(name).txt")
        try Self.compare(try JSONOutput.pretty(report) + "\n", file: "preflight-\(name).json")
    }
}
