import Foundation
import Glibc
import Host
import Report
import TestSupport
import Testing

/// OpenClaw's own diagnostics in the report (issue 32 item 9): a stand-in `openclaw` CLI installed
/// where npm's `--prefix ~/.npm-global` puts it answers `doctor --lint --json` and `gateway status
/// --json`; one that hangs and one that floods are stopped within their bounds, children too.
@Suite("clawnet report: OpenClaw's own diagnostics", .testBed)
struct ReportOpenClawTests {
    /// A bash script named openclaw in `folder` (made, root's, mode 0755).
    static func install(in folder: String, script: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try writeExecutable("#!/bin/bash\n" + script, to: "\(folder)/openclaw")
    }

    static func report(_ bed: TestBed, home: String) async throws -> (CommandResult, String) {
        let archive = "\(bed.directory)/report-cli-\(uniqueTag()).tar.gz"
        let result = try await bed.clawnet(
            ["report", "--out", archive, "--timeout", "2s", "--no-local"], environment: ["HOME": home], timeout: .seconds(120))
        #expect(result.status == 0, "\(result.stderr)")
        return (result, try await ReportCommandTests.unpack(bed, archive))
    }

    @Test("found in ~/.npm-global/bin, its doctor findings and gateway status are in the archive, the token in them scrubbed")
    func answers() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let token = "ZqCliToken\(tag)Sx7"
        let home = "\(bed.directory)/report-home-\(tag)"
        try FileManager.default.createDirectory(atPath: "\(home)/.openclaw", withIntermediateDirectories: true)
        try #"{ gateway: { auth: { token: "\#(token)" } } }"#.write(
            toFile: "\(home)/.openclaw/openclaw.json", atomically: true, encoding: .utf8)
        let findings =
            #"{"ok":false,"checksRun":12,"checksSkipped":1,"findings":[{"checkId":"core/doctor/gateway-auth","#
            + #""severity":"warning","message":"token \#(token) is short","path":"gateway.auth.token","fixHint":"openclaw doctor --fix"}]}"#
        try Self.install(
            in: "\(home)/.npm-global/bin",
            script: """
                case "$1 $2 $3" in
                  "--version  ") echo "2026.9.4" ;;
                  "doctor --lint --json") echo '\(findings)'; exit 1 ;;
                  "gateway status --json") echo '{"service":{"loaded":true,"runtime":{"status":"running"}},"rpc":{"ok":true}}' ;;
                  *) echo "unexpected arguments: $*" >&2; exit 2 ;;
                esac

                """)
        let (_, root) = try await Self.report(bed, home: home)
        let doctor = try String(contentsOfFile: "\(root)/openclaw-doctor.json", encoding: .utf8)
        #expect(doctor.contains(#""checkId":"core/doctor/gateway-auth""#) && doctor.contains("token [REDACTED] is short"), "\(doctor)")
        let status = try String(contentsOfFile: "\(root)/openclaw-gateway-status.json", encoding: .utf8)
        #expect(status.contains(#""rpc":{"ok":true}"#), "\(status)")
        let versions = try String(contentsOfFile: "\(root)/versions.txt", encoding: .utf8)
        #expect(versions.contains("openclaw: 2026.9.4 (\(home)/.npm-global/bin/openclaw, run as uid 0"), "\(versions)")
        let manifest = try String(contentsOfFile: "\(root)/manifest.json", encoding: .utf8)
        #expect(manifest.contains("openclaw doctor --lint --json") && manifest.contains("exited with status 1"), "\(manifest)")
    }

    @Test("a CLI that hangs (its child too) and one that floods are stopped, children and all, and named in the manifest")
    func hangsAndFloods() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let home = "\(bed.directory)/report-home-\(tag)"
        let pidFile = "\(bed.directory)/openclaw-child-\(tag).pid"
        try Self.install(
            in: "\(home)/.npm-global/bin",
            script: """
                case "$1" in
                  --version) echo "2026.9.4" ;;
                  doctor) sleep 600 & echo $! > '\(pidFile)'; wait ;;
                  gateway) exec yes '{"flood":true}' ;;
                esac

                """)
        // The bound is OpenClaw's CLI's, said in the manifest (a wall clock here would measure the
        // machine's load, not the report).
        let (_, root) = try await Self.report(bed, home: home)
        let manifest = try String(contentsOfFile: "\(root)/manifest.json", encoding: .utf8)
        #expect(manifest.contains("did not finish within 15 s and was stopped: left out"), "\(manifest)")
        #expect(manifest.contains("printed more than 1024 KiB and was stopped: left out"), "\(manifest)")
        let names = try FileManager.default.contentsOfDirectory(atPath: root)
        #expect(!names.contains("openclaw-doctor.json") && !names.contains("openclaw-gateway-status.json"), "\(names)")
        let child = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await Self.exits(child, within: .seconds(10)), "the hanging CLI's child (pid \(child)) was stopped with it")
    }

    /// Whether process `pid` ends within `limit`: its pidfd becomes readable when it does.
    static func exits(_ pid: Int32, within limit: Duration) async -> Bool {
        // glibc's pidfd_open (2.36 and later), which Swift's Glibc module does not declare.
        typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else {
            Issue.record("this glibc has no pidfd_open")
            return false
        }
        let pidfdOpen = unsafeBitCast(symbol, to: PidfdOpen.self)
        return await Task.detached {
            let descriptor = pidfdOpen(pid, 0)
            guard descriptor >= 0 else { return errno == ESRCH }
            defer { close(descriptor) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&poller, 1, Int32(limit.components.seconds * 1000)) == 1
        }.value
    }
}
