import Foundation
import Glibc
import TestSupport
import Testing

/// Every file clawnet reads has its size checked before a byte is read and is never read past
/// its kind's bound (`--as-device` once read a 1 GiB file whole, 1 GB of RSS). A sparse 1 GiB
/// file goes to each flag that names a file, through the binary on the test bed's bare host,
/// under `ulimit -v` of 512 MiB: a command that tried to hold the file could not, and would
/// crash instead of naming the bound.
@Suite("file bounds: a 1 GiB file is refused by its size, never read", .testBed)
struct FileBoundsTests {
    /// Address space for one command: far less than the file, far more than clawnet needs.
    static let addressSpaceKiB = 512 * 1024

    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        /// The exit status and what the message must say (the bound of that kind of file).
        let status: Int32
        let says: String
        var testDescription: String { arguments.prefix(2).joined(separator: " ") + " " + (arguments.last ?? "") }
    }

    static let cases: [Case] = [
        Case(arguments: ["doctor", "127.0.0.1:9", "--as-device", "BIG"], status: 2, says: "larger than 16 KiB"),
        Case(arguments: ["doctor", "127.0.0.1:9", "--token-file", "BIG"], status: 2, says: "larger than 4 KiB"),
        Case(
            arguments: [
                "zone", "push", "--domain", "d.internal", "--server", "127.0.0.1:9", "--gateway", "host=a,ip=100.64.0.1", "--tsig-key",
                "BIG",
            ],
            status: 2, says: "larger than 64 KiB"),
        Case(arguments: ["zone", "check", "BIG"], status: 1, says: "larger than 64 MiB"),
        Case(arguments: ["zone", "generate", "--domain", "d.internal", "--inventory", "BIG"], status: 1, says: "larger than 16 MiB"),
        Case(
            arguments: [
                "zone", "generate", "--domain", "d.internal", "--gateway", "host=a,ip=100.64.0.1", "--ns-address", "100.64.0.53", "--out",
                "OUT", "--bind", "100.64.0.53", "--corefile", "BIG",
            ], status: 1, says: "larger than 1 MiB"),
        Case(
            arguments: [
                "zone", "generate", "--domain", "d.internal", "--gateway", "host=a,ip=100.64.0.1", "--ns-address", "100.64.0.53",
                "--config", "BIG",
            ],
            status: 0, says: "larger than 1 MiB"),
        Case(arguments: ["advertise", "--serve-only", "--port", "18999", "--tls-dir", "TLS"], status: 1, says: "larger than 1 MiB"),
    ]

    @Test("each flag that names a file: refused with the bound named, in bounded memory", arguments: cases)
    func refused(_ testCase: Case) async throws {
        let bed = try TestBed.current()
        let directory = "\(bed.directory)/file-bounds-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory + "/tls", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let big = directory + "/big"
        #expect(FileManager.default.createFile(atPath: big, contents: nil) && truncate(big, 1 << 30) == 0)
        for name in ["gateway-cert.pem", "gateway-key.pem"] { #expect(link(big, "\(directory)/tls/\(name)") == 0) }
        let arguments = testCase.arguments.map { ["BIG": big, "TLS": directory + "/tls", "OUT": directory + "/out.db"][$0] ?? $0 }
        let script = "ulimit -v \(Self.addressSpaceKiB) && exec \"$0\" \"$@\""
        let result = try await bed.run(on: .bare, ["sh", "-c", script, ClawnetBinary.path] + arguments, timeout: .seconds(30))
        #expect(result.status == testCase.status, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains(testCase.says) && result.stderr.contains(directory), "\(result.stderr)")
    }

    @Test("standard input past its bound: refused after the bound, in bounded memory")
    func standardInput() async throws {
        let bed = try TestBed.current()
        let big = "\(bed.directory)/stdin-\(uniqueTag())"
        #expect(FileManager.default.createFile(atPath: big, contents: nil) && truncate(big, 1 << 30) == 0)
        defer { try? FileManager.default.removeItem(atPath: big) }
        let script = "ulimit -v \(Self.addressSpaceKiB) && exec \"$0\" zone check - < \"$1\""
        let result = try await bed.run(on: .bare, ["sh", "-c", script, ClawnetBinary.path, big], timeout: .seconds(60))
        #expect(result.status == 1 && result.stderr.contains("larger than 16 MiB"), "\(result.status): \(result.stderr)")
    }
}
