import Foundation
import Glibc
import TestSupport
import Testing

/// The reproducers of the attack on `zone generate` and `zone check`, run as the binary: each
/// exits in bounded time with the right code, writes nothing it should not, and says why.
/// No test bed needed: these only read and write files.
@Suite("zone generate and check: files, exit codes, nothing half-written")
struct ZoneFilesCommandTests {
    static let base = ["zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53"]

    func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zonecli-\(uniqueTag())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    func clawnet(_ arguments: [String]) async throws -> CommandResult {
        try await runCommand(ClawnetBinary.path, arguments, timeout: .seconds(30))
    }

    func inventory(_ beacons: [String]) -> String {
        #"{"schema":"clawnet.browse.v1","domains":["local."],"elapsedMs":0,"beacons":[\#(beacons.joined(separator: ","))],"errors":[]}"#
    }

    func beacon(_ name: String, host: String = "h", ip: String = "100.64.0.1", port: String = "18789", txt: String = #"{"role":"gateway"}"#)
        -> String
    {
        #"{"instance":"\#(name)","host":"\#(host).local.","port":\#(port),"addresses":["\#(ip)"],"txt":\#(txt)}"#
    }

    @Test(
        "usage errors (exit 2): empty and directory paths, devices, one file twice, zone ids, control characters",
        arguments: [
            ["--gateway", "host=a,ip=100.64.0.1", "--out", ""], ["--gateway", "host=a,ip=100.64.0.1", "--out", "/"],
            ["--gateway", "host=a,ip=100.64.0.1", "--out", "/tmp/"], ["--gateway", "host=a,ip=100.64.0.1", "--out", "/dev/zero"],
            ["--gateway", "host=a,ip=100.64.0.1", "--out", "/tmp/z.db", "--corefile", "/dev/null"],
            ["--gateway", "host=a,ip=100.64.0.1", "--out", "/tmp/z\n.db"],
            ["--gateway", "host=a,ip=100.64.0.1", "--out", "/tmp/a\"b.db", "--corefile", "/tmp/Corefile-x"],
            ["--gateway", "host=a,ip=100.64.0.1", "--out", "/tmp/same.db", "--corefile", "/tmp/../tmp/same.db"],
            ["--gateway", "host=a,ip=fd00::1%x\n$INCLUDE /etc/shadow"], ["--gateway", "host=a,ip=fe80::1%eth0"],
            ["--gateway", "host=a,ip=100.64.0.1", "--ns-address", "fd00::1%x\n$INCLUDE /etc/shadow"],
            ["--gateway", "host=a,ip=100.64.0.1", "--out", "/tmp/z.db", "--corefile", "/tmp/C", "--bind", "fd00::1%x\n}\n. {"],
            ["--gateway", "host=a,ip=100.64.0.1", "--tailnet-only"],
        ])
    func usageErrors(arguments: [String]) async throws {
        let result = try await clawnet(Self.base + arguments)
        #expect(result.status == 2, "\(arguments): \(result.status) \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/same.db"))
    }

    @Test("two Gateways sharing a 63-byte name, and 120 sharing a 63-byte host label: written, every label within 63 bytes")
    func renamingEnds() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let name = String(repeating: "n", count: 63)
        let specs = try await clawnet(
            Self.base + ["--gateway", "host=a,ip=100.64.0.1,name=\(name)", "--gateway", "host=b,ip=100.64.0.2,name=\(name)"])
        #expect(specs.status == 0, "\(specs.stderr)")
        #expect(specs.stdout.contains(String(repeating: "n", count: 59) + "\\032\\(2\\)._openclaw-gw._tcp"), "\(specs.stdout)")

        let host = String(repeating: "h", count: 63)
        let beacons =
            (0..<120).map { beacon("gw \($0)", host: host, ip: "100.64.\($0 / 200).\($0 % 200 + 1)") } + [
                beacon(name), beacon(name, ip: "100.64.9.9"),
            ]
        try inventory(beacons).write(toFile: directory + "/fleet.json", atomically: true, encoding: .utf8)
        let fleet = try await clawnet(Self.base + ["--inventory", directory + "/fleet.json", "--out", directory + "/z.db"])
        #expect(fleet.status == 0, "\(fleet.stderr)")
        let check = try await clawnet(["zone", "check", directory + "/z.db"])
        #expect(check.status == 0, "\(check.stdout)")
        let labels = try String(contentsOfFile: directory + "/z.db", encoding: .utf8).split(separator: "\n").compactMap {
            $0.hasPrefix("h") ? $0.split(separator: " ").first : nil
        }
        #expect(Set(labels).count == 122 && labels.allSatisfy { $0.utf8.count <= 63 }, "\(labels.filter { $0.utf8.count > 63 })")
    }

    @Test("zone check on a directory, /dev/zero or a FIFO: exit 1 at once, saying what the path is")
    func checkNotRegular() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        for (path, kind) in [(directory, "a directory"), ("/dev/zero", "a character device"), (directory + "/fifo", "a FIFO")] {
            let result = try await clawnet(["zone", "check", path])
            #expect(result.status == 1 && result.stderr.contains(kind), "\(path): \(result.status) \(result.stderr)")
        }
    }

    @Test("--corefile keeps the operator's Corefile byte for byte and refuses a foreign stanza for the zone")
    func corefileEdited() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let corefile = directory + "/Corefile"
        let mine = "# resolver\n. {\n    forward . 9.9.9.9\n}\n"
        try mine.write(toFile: corefile, atomically: true, encoding: .utf8)
        let arguments =
            Self.base + [
                "--gateway", "host=a,ip=100.64.0.1", "--out", directory + "/z.db", "--corefile", corefile, "--bind", "100.64.0.53",
            ]
        let first = try await clawnet(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let written = try String(contentsOfFile: corefile, encoding: .utf8)
        #expect(written.hasPrefix(mine) && written.contains("openclaw.internal:53 {"), "\(written)")
        let again = try await clawnet(arguments)
        #expect(again.stderr.contains("unchanged: \(corefile)"), "\(again.stderr)")

        let foreign = directory + "/Corefile.foreign"
        let theirs = mine + "openclaw.internal {\n    forward . 10.0.0.1\n}\n"
        try theirs.write(toFile: foreign, atomically: true, encoding: .utf8)
        let refused = try await clawnet(
            Self.base + ["--gateway", "host=a,ip=100.64.0.1", "--out", directory + "/y.db", "--corefile", foreign, "--bind", "100.64.0.53"])
        #expect(refused.status == 1 && refused.stderr.contains("did not write") && refused.stderr.contains("line 5"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: foreign, encoding: .utf8) == theirs)
        #expect(!FileManager.default.fileExists(atPath: directory + "/y.db"), "the zone is not written without its Corefile")
    }

    @Test("a Corefile that cannot be written leaves the zone as it was")
    func bothOrNeither() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let zone = directory + "/z.db"
        let first = try await clawnet(Self.base + ["--gateway", "host=a,ip=100.64.0.1", "--out", zone])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: zone))
        let failed = try await clawnet(
            Self.base + [
                "--gateway", "host=a,ip=100.64.0.1", "--gateway", "host=b,ip=100.64.0.2", "--out", zone, "--corefile",
                directory + "/missing/Corefile", "--bind", "100.64.0.53",
            ])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: zone)) == before, "the zone changed although the Corefile was not written")
    }

    @Test("an inventory with a wrong value names the field; nothing is written")
    func inventoryErrors() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (port, words) in [("70000", "beacons[0].port: 70000 is not a port"), ("1.5", "beacons[0].port: 1.5 is not a port")] {
            try inventory([beacon("a", port: port)]).write(toFile: directory + "/fleet.json", atomically: true, encoding: .utf8)
            let result = try await clawnet(Self.base + ["--inventory", directory + "/fleet.json", "--out", directory + "/z.db"])
            #expect(result.status == 1 && result.stderr.contains(words), "\(port): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/z.db"))
        }
    }

    @Test("--out over a file clawnet did not write (a hand-written zone, notes): exit 1 naming it and the way out, the file unchanged")
    func othersContentKept() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let handWritten = [
            "$ORIGIN openclaw.internal.\n$TTL 300\n@ IN SOA ns1 hostmaster 7 3600 600 86400 60\n@ IN NS ns1\nwww IN A 10.0.0.1\n",
            "notes I keep\n",
        ]
        for content in handWritten {
            let path = directory + "/zone.db"
            try content.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try await clawnet(Self.base + ["--gateway", "host=a,ip=100.64.0.1", "--out", path])
            #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("\(path) holds content neither clawnet nor OpenClaw's Gateway writes"), "\(result.stderr)")
            #expect(result.stderr.contains("a new path") && result.stderr.contains("zone push"), "\(result.stderr)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == content)
        }
        // A zone clawnet wrote, and an empty file, are replaced.
        let zone = directory + "/mine.db"
        _ = FileManager.default.createFile(atPath: zone, contents: Data())
        #expect(try await clawnet(Self.base + ["--gateway", "host=a,ip=100.64.0.1", "--out", zone]).status == 0)
        let second = try await clawnet(Self.base + ["--gateway", "host=b,ip=100.64.0.2", "--out", zone])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try String(contentsOfFile: zone, encoding: .utf8).contains("b IN A 100.64.0.2"))
    }

    @Test(
        "--out and --corefile through a link nobody planted in a sticky directory (issue 18): refused, the victim unchanged",
        .enabled(if: geteuid() == 0), arguments: ["--out", "--corefile"])
    func plantedLink(flag: String) async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/sticky", withIntermediateDirectories: false)
        #expect(chmod(directory + "/sticky", 0o1777) == 0)
        let victim = directory + "/victim"
        try "root's own\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let link = directory + "/sticky/planted"
        #expect(symlink(victim, link) == 0 && lchown(link, 65534, 65534) == 0)
        let paths = flag == "--out" ? ["--out", link] : ["--out", directory + "/zone.db", "--corefile", link, "--bind", "100.64.0.53"]
        let result = try await clawnet(Self.base + ["--gateway", "host=a,ip=100.64.0.1"] + paths)
        #expect(result.status != 0, "\(result.stdout)")
        #expect(result.stderr.contains("symbolic link of uid 65534") && result.stderr.contains("protected_symlinks"), "\(result.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "root's own\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/zone.db"), "nothing written")
    }

    @Test("an inventory whose every Gateway is skipped does not empty the zone at --out: exit 1, the zone as it was")
    func noGatewayLeft() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let zone = directory + "/z.db"
        #expect(try await clawnet(Self.base + ["--gateway", "host=a,ip=100.64.0.1", "--out", zone]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: zone))
        let keys = (0..<300).map { #""k\#($0)":"\#(String(repeating: "x", count: 245))""# }.joined(separator: ",")
        try inventory([beacon("big", txt: "{\(keys)}")]).write(toFile: directory + "/fleet.json", atomically: true, encoding: .utf8)
        let result = try await clawnet(Self.base + ["--inventory", directory + "/fleet.json", "--out", zone])
        #expect(result.status == 1 && result.stderr.contains("gave no Gateway that can be published"), "\(result.stderr)")
        #expect(result.stderr.contains("\(zone) is left as it is"), "\(result.stderr)")
        #expect(result.stderr.contains("skipped 'big'"), "the notes say why: \(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: zone)) == before)
    }

    @Test("an inventory Gateway no zone can hold (a 73 KB TXT) is skipped with its name; the others are written")
    func hugeTXTSkipped() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = (0..<300).map { #""k\#($0)":"\#(String(repeating: "x", count: 245))""# }.joined(separator: ",")
        try inventory([beacon("big", txt: "{\(keys)}"), beacon("small", host: "s", ip: "100.64.0.2")]).write(
            toFile: directory + "/fleet.json", atomically: true, encoding: .utf8)
        let result = try await clawnet(Self.base + ["--inventory", directory + "/fleet.json", "--out", directory + "/z.db"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("skipped 'big'") && result.stderr.contains("does not fit in one DNS message"), "\(result.stderr)")
        #expect(try String(contentsOfFile: directory + "/z.db", encoding: .utf8).contains("small._openclaw-gw._tcp IN SRV"))
    }

    @Test("an SRV target longer than 255 bytes given with --gateway: exit 1, nothing written")
    func longTarget() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let domain = (0..<3).map { _ in String(repeating: "d", count: 63) }.joined(separator: ".")
        let result = try await clawnet([
            "zone", "generate", "--domain", domain, "--ns-address", "100.64.0.53", "--gateway",
            "host=\(String(repeating: "h", count: 63)),ip=100.64.0.1,name=a", "--out", directory + "/z.db",
        ])
        #expect(result.status == 1 && result.stderr.contains("SRV target"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/z.db"))
    }
}
