import Foundation
import TestSupport
import Testing

/// Issue 21: every command's status and summary lines go to stderr; stdout carries only the
/// product (a zone, an UPDATE script, JSON, a table), so a pipe gets nothing else.
@Suite("Summary lines on stderr for every command", .testBed, .serialized)
struct SummaryStreamTests {
    /// A summary line that must be on stderr and nowhere on stdout.
    func expectOnStderr(_ result: CommandResult, _ line: String, _ command: String) {
        let seen = "\(command): status \(result.status)\nstdout:\n\(result.stdout)\nstderr:\n\(result.stderr)"
        #expect(result.stderr.contains(line), "\(seen)")
        #expect(!result.stdout.contains(line), "\(seen)")
    }

    @Test("zone generate --out, zone push (sent, unchanged, --dry-run), zone check and doctor")
    func summariesOnStderr() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        let gateway = ["--gateway", "host=studio,ip=100.64.0.7,name=Studio"]
        let zone = "\(directory)/openclaw.internal.db"
        let generate = ["zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--out", zone] + gateway
        let wrote = try await bed.clawnet(generate)
        expectOnStderr(wrote, "wrote \(zone) (serial ", "zone generate --out")
        #expect(wrote.stdout.isEmpty, "zone generate --out: \(wrote.stdout)")
        let again = try await bed.clawnet(generate)
        expectOnStderr(again, "unchanged: \(zone)", "zone generate --out again")
        expectOnStderr(try await bed.clawnet(["zone", "check", zone]), "\(zone) (openclaw.internal.): 0 failures", "zone check")

        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let dry = try await push(bed, dns, key: key, gateway + ["--dry-run"])
        expectOnStderr(dry, "read openclaw.internal. from \(dns.label)", "zone push --dry-run")
        expectOnStderr(dry, "dry run: 2 changes in 1 UPDATE for openclaw.internal., nothing sent", "zone push --dry-run")
        #expect(dry.stdout.hasPrefix("; clawnet zone push --dry-run for openclaw.internal."), "the script alone: \(dry.stdout)")
        let pushed = try await push(bed, dns, key: key, gateway)
        expectOnStderr(pushed, "no ledger of a push of openclaw.internal. to \(dns.label)", "zone push")
        expectOnStderr(pushed, "pushed ", "zone push")
        #expect(pushed.stdout.isEmpty, "zone push: \(pushed.stdout)")
        let unchanged = try await push(bed, dns, key: key, gateway)
        expectOnStderr(unchanged, "unchanged: \(dns.label) serves this Gateway as it is; nothing sent", "zone push again")
        #expect(unchanged.stdout.isEmpty, "zone push again: \(unchanged.stdout)")

        let doctor = try await bed.clawnet(["doctor", "--no-local", "--timeout", "3s", "127.0.0.1:9"])
        expectOnStderr(doctor, "doctor: ", "doctor")
    }

    /// One command line and a status line it prints; `{dir}` is a fresh folder.
    struct StatusCase: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let line: String
        var testDescription: String { arguments.prefix(2).joined(separator: " ") }
    }

    static let statusCases = [
        StatusCase(arguments: ["browse", "--no-local", "--manual", "127.0.0.1:9", "--timeout", "3s"], line: "1 Gateway in manual targets"),
        StatusCase(arguments: ["preflight", "--no-local", "--timeout", "3s", "127.0.0.1:9"], line: "preflight: not ready (exit 1)"),
        StatusCase(arguments: ["report", "--out", "{dir}/report.tar.gz", "--timeout", "20s"], line: "wrote {dir}/report.tar.gz: "),
        StatusCase(
            arguments: [
                "watch", "--no-local", "--manual", "127.0.0.1:9", "--interval", "1s", "--timeout", "3s", "--metrics-listen", "127.0.0.1:0",
            ],
            line: "serving /metrics and /sd on 127.0.0.1:"),
        StatusCase(
            arguments: [
                "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--out", "{dir}/z.db",
                "--gateway", "host=studio,ip=100.64.0.7",
            ],
            line: "wrote {dir}/z.db (serial "),
    ]

    @Test("browse, preflight, report, watch and zone generate: the status line on stderr", arguments: statusCases)
    func statusLineOnStderr(_ row: StatusCase) async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        let arguments = row.arguments.map { $0.replacingOccurrences(of: "{dir}", with: directory) }
        let result = try await bed.clawnet(arguments, environment: ["HOME": directory])
        expectOnStderr(result, row.line.replacingOccurrences(of: "{dir}", with: directory), "\(arguments)")
    }

    @Test("advertise: every status line (advertising, established, serving, withdrawn) on stderr, nothing on stdout")
    func advertiseStatusOnStderr() async throws {
        let bed = try TestBed.current()
        let name = "Status (OpenClaw) \(uniqueTag())"
        let port = testPort()
        let advertiser = try bed.spawnClawnet(["advertise", "--name", name, "--port", String(port), "--serve"], on: .gw)
        defer { advertiser.terminate() }
        try await advertiser.waitForOutput("established: \(name)", timeout: .seconds(20))
        #expect(try await advertiser.stop(signal: SIGTERM) == 0, "\(advertiser.output)")
        await advertiser.waitForOutputEnd()
        for line in ["advertising \"\(name)\"", "established: \(name)", "serving on ", "withdrawn: \(name)"] {
            #expect(advertiser.stderr.contains(line), "\(line): \(advertiser.output)")
        }
        #expect(advertiser.stdout.isEmpty, "stdout: \(advertiser.stdout)")
    }
}
