import Foundation
import TestSupport
import Testing

/// The commands that need the test bed's namespaces (they browse or probe).
@Suite("Writes to stdout from browse, doctor and preflight", .testBed, .serialized)
struct NetworkWriteErrorTests {
    @Test("browse, doctor and preflight > /dev/full: the reason on stderr; browse, which succeeds, exits 1")
    func fullDevice() async throws {
        let bed = try TestBed.current()
        let dns = try await bed.startBIND(zones: ["openclaw.internal": studioZone])
        defer { dns.terminate() }
        let browse = ["browse", "--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint]
        #expect(try await bed.clawnet(browse).status == 0)
        for format in ["table", "json", "jsonl"] {
            let result = try await toFullDevice(browse + ["--format", format], bed: bed)
            #expect(result.status == 1 && result.stderr.contains(fullMessage), "\(format): \(result.stderr)")
        }
        for command in [["doctor", "--no-local", "--timeout", "2s", "127.0.0.1:9"], ["preflight", "--timeout", "2s"]] {
            let result = try await toFullDevice(command, bed: bed)
            #expect(result.status != 0 && result.stderr.contains(fullMessage), "\(command): \(result.stderr)")
        }
    }

    /// --watch runs until it is stopped: the closed pipe must stop it (the run's own bound, 60 s,
    /// is half the 120 s --timeout, and would fail the test with a kill).
    @Test("browse --watch --format jsonl of 400 Gateways | head -1: it ends, exit 0, quietly")
    func closedPipe() async throws {
        let bed = try TestBed.current()
        let records = (0..<400).flatMap { index in
            [
                "h\(index) IN A 100.64.2.\(index % 250 + 1)", "_openclaw-gw._tcp IN PTR g\(index)._openclaw-gw._tcp",
                "g\(index)._openclaw-gw._tcp IN SRV 0 0 18789 h\(index)",
                #"g\#(index)._openclaw-gw._tcp IN TXT "role=gateway" "displayName=Gateway \#(index) of a fleet large enough to fill a pipe""#,
            ]
        }
        let dns = try await bed.startBIND(zones: ["openclaw.internal": openClawZone(records)], options: "max-records-per-type 0;")
        defer { dns.terminate() }
        let result = try await intoHead(
            [
                "browse", "--watch", "--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint, "--format", "jsonl",
                "--timeout", "120s",
            ],
            bed: bed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("cannot write"), "\(result.stderr)")
    }
}
