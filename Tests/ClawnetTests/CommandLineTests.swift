import ArgumentParser
import DNSSD
import Discovery
import Doctor
import Foundation
import Output
import Probes
import TestSupport
import Testing

@testable import Commands

/// The command line, parsed in-process (ArgumentParser's AssertParse style): every value
/// arrives in its real type, and a bad one is an error that names the flag, the value and
/// what is accepted. Then the binary itself for exit codes. No test bed needed.
@Suite("Command line")
struct CommandLineTests {
    /// Parses `arguments` as `command` or records why it did not.
    func parse<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) -> Command? {
        do {
            return try command.parse(arguments)
        } catch {
            Issue.record("\(arguments) did not parse: \(command.message(for: error))")
            return nil
        }
    }

    /// The message a bad command line gets, or nil (recorded) when it parses.
    func failure<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) -> String? {
        do {
            _ = try command.parse(arguments)
            Issue.record("\(arguments) parsed, but should not")
            return nil
        } catch {
            return command.message(for: error)
        }
    }

    @Test("browse: domains, servers, manual targets, types and durations arrive parsed")
    func browse() throws {
        let command = try #require(
            parse(
                BrowseCommand.self,
                [
                    "--domain", "OpenClaw.Internal.", "--server", "[fd00::53]:5300", "--manual", "wss://gw.example:443/path",
                    "--type", "_moltbot-gw._tcp", "--timeout", "1.5s", "--no-local",
                ]))
        #expect(command.domainOption.domains.map(\.name) == ["openclaw.internal."])
        #expect(command.serverOption.servers.map(\.description) == ["fd00::53#5300"])
        let manual = command.manualOption.manual.first
        #expect(manual?.host == "gw.example" && manual?.port == 443 && manual?.scheme == .wss)
        #expect(command.types.map(\.name) == ["_moltbot-gw._tcp"])
        #expect(command.timeout.duration == .milliseconds(1500))
        #expect(command.options.local == false)
        #expect(command.options.manual.first?.port == 443)
    }

    @Test("a port left out stays open until the config gives one")
    func manualPort() throws {
        let command = try #require(parse(BrowseCommand.self, ["--manual", "gw.example"]))
        #expect(command.manualOption.manual.first?.port == nil)
        #expect(command.manualOption.manual.first?.endpoint(defaultPort: 18800).port == 18800)
    }

    @Test("doctor: targets, pin, checks, timeout", arguments: [["gw.local", "wss://10.0.0.1:18789", "Studio (OpenClaw)"]])
    func doctor(targets: [String]) throws {
        let pin = "SHA256:" + String(repeating: "AB:", count: 31) + "AB"
        let command = try #require(parse(DoctorCommand.self, targets + ["--pin", pin, "--check", "gw.tls", "--timeout", "250ms"]))
        #expect(command.targetArguments.targets.map(\.text) == targets)
        #expect(command.targetArguments.targets.map { $0.endpoint == nil } == [false, false, true], "an instance name is not an endpoint")
        #expect(command.pinOption.pin?.hex == String(repeating: "ab", count: 32))
        #expect(command.options.only == [.gwTLS])
        #expect(command.options.timeout == .milliseconds(250))
    }

    @Test(
        "bad values name the flag and say what is accepted",
        arguments: [
            (["--domain", "a..b"], "--domain", "empty label"),
            (["--server", "gw.example"], "--server", "not an IP address"),
            (["--timeout", "soon"], "--timeout", "500ms, 5s, 1.5s, 2m"),
            (["--timeout", "2d"], "--timeout", "500ms, 5s, 1.5s, 2m"),
            (["--timeout", "100000"], "--timeout", "24 hours"),
            (["--type", "_bad"], "--type", "must look like _name._tcp"),
            (["--manual", "host:99999"], "--manual", "not a port"),
        ] as [([String], String, String)])
    func badBrowseValues(arguments: [String], flag: String, words: String) {
        let message = failure(BrowseCommand.self, arguments) ?? ""
        #expect(message.contains(flag) && message.contains(words), "\(arguments): \(message)")
    }

    @Test(
        "durations: negative, zero, malformed and too long each say which forms and which maximum are accepted",
        arguments: [
            "--timeout=-1", "--timeout=-0.5s", "--timeout=0", "--timeout=0ms", "--timeout=1e3", "--timeout=nan", "--timeout=inf",
            "--timeout=0x10", "--timeout=5 s", "--timeout=.", "--timeout=86401",
        ])
    func badDurations(argument: String) {
        let message = failure(BrowseCommand.self, [argument]) ?? ""
        #expect(message.contains("500ms, 5s, 1.5s, 2m") || message.contains("24 hours"), "\(argument): \(message)")
        #expect(message.contains("86400s"), "\(argument): \(message)")
        if argument.hasPrefix("--timeout=-") { #expect(message.contains("cannot be negative"), "\(argument): \(message)") }
    }

    @Test(
        "durations in every accepted form, compound ones included",
        arguments: [
            ("5s", 5000), ("1.5s", 1500), ("500ms", 500), ("2m", 120_000), (".5s", 500), ("1m30s", 90_000), ("1h", 3_600_000),
            ("2s500ms", 2500), ("1H2M3S", 3_723_000),
        ])
    func goodDurations(text: String, milliseconds: Int64) throws {
        let command = try #require(parse(BrowseCommand.self, ["--timeout", text]))
        #expect(command.timeout.duration.milliseconds == milliseconds)
    }

    @Test("one name, one meaning: browse takes TARGETs as --manual; doctor and preflight take --manual as a TARGET")
    func manualAndTargets() throws {
        let browse = try #require(parse(BrowseCommand.self, ["studio.local", "--manual", "10.0.0.1:18790"]))
        #expect(browse.options.manual.map(\.text) == ["studio.local", "10.0.0.1:18790"])
        let doctor = try #require(parse(DoctorCommand.self, ["wss://gw.example:18789", "--manual", "studio.local"]))
        #expect(doctor.options.targets.map(\.text) == ["wss://gw.example:18789", "studio.local"])
        #expect(doctor.options.targets.allSatisfy { $0.endpoint != nil })
        let preflight = try #require(parse(PreflightCommand.self, ["--manual", "127.0.0.1:18789"]))
        #expect(preflight.options.targets.map(\.text) == ["127.0.0.1:18789"])
        #expect(preflight.options.discovery.local == false, "a named Gateway is checked without browsing local.")
        let byInstance = try #require(parse(PreflightCommand.self, ["Studio (OpenClaw)", "127.0.0.1:18789"]))
        #expect(byInstance.options.discovery.local, "an instance name is found only by browsing local.")
    }

    @Test("a bare number is refused with the two readings it could have", arguments: ["2000", "5", ".5", "0"])
    func bareNumberDurations(text: String) {
        let message = failure(BrowseCommand.self, ["--timeout", text]) ?? ""
        #expect(message.contains("did you mean \(text)ms or \(text)s?"), "\(text): \(message)")
    }

    @Test("a negative duration is named as one, for every duration flag (not taken for a flag of its own)")
    func negativeDurations() {
        for (command, flag) in [("browse", "--timeout"), ("watch", "--interval")] {
            let message =
                (command == "browse" ? failure(BrowseCommand.self, [flag, "-1s"]) : failure(WatchCommand.self, [flag, "-1s"])) ?? ""
            #expect(message.contains("'-1s' is not a duration (a duration cannot be negative)"), "\(command) \(flag): \(message)")
        }
    }

    @Test(
        "watch --interval under 1s is a usage error naming the floor, with a hint when minutes were likely meant",
        arguments: [("1ms", "did you mean 1m?"), ("500ms", "did you mean 500m?"), ("0.5s", "least it can be")] as [(String, String)])
    func watchIntervalFloor(text: String, words: String) {
        let message = failure(WatchCommand.self, ["--interval", text]) ?? ""
        #expect(message.contains("'\(text)' is shorter than 1s, the least it can be") && message.contains(words), "\(text): \(message)")
        #expect(parse(WatchCommand.self, ["--interval", "1s"])?.interval == .seconds(1), "1s itself is taken")
    }

    @Test("compound durations give each unit once, longest first", arguments: ["30s1m", "1m1m", "1s2", "m", "1hm", "5sec"])
    func badCompoundDurations(text: String) {
        let message = failure(BrowseCommand.self, ["--timeout", text]) ?? ""
        #expect(message.contains("is not a duration") && message.contains("1m30s"), "\(text): \(message)")
    }

    @Test(
        "a port out of range, in a target or a URL, is a usage error naming the port; an instance name is not a target to check",
        arguments: [
            ("h:65536", "'65536' is not a port"), ("wss://gw.example:0", "'0' is not a port"), ("[::1]:99999", "'99999'"),
            ("10.0.0.1:-1", "'-1' is not a port"), ("::1:80", "[::1]:80"), ("", "an empty TARGET"), (" ", "an empty TARGET"),
            ("studio:", "no port after ':'"),
        ] as [(String, String)])
    func badDoctorTargets(target: String, words: String) {
        let message = failure(DoctorCommand.self, [target]) ?? ""
        #expect(message.contains(words), "\(target): \(message)")
    }

    @Test("instance names with colons or spaces stay instance names", arguments: ["Studio (OpenClaw)", "lab: west", "gw:abc"])
    func instanceNameTargets(target: String) throws {
        let command = try #require(parse(DoctorCommand.self, [target]))
        #expect(command.targetArguments.targets.first?.endpoint == nil)
    }

    @Test("--manual ::1:80 is ambiguous: refused, with [::1]:80 suggested")
    func ambiguousManual() {
        let message = failure(BrowseCommand.self, ["--manual", "::1:80"]) ?? ""
        #expect(message.contains("ambiguous") && message.contains("[::1]:80"), "\(message)")
    }

    @Test(
        "the binary: a server no packet can go to is a usage error (exit 2), not a trap",
        arguments: [
            ["browse", "--no-local", "--domain", "x.test", "--server", "0.0.0.0"],
            ["browse", "--no-local", "--domain", "x.test", "--server", "::"],
            ["zone", "check", "/dev/null", "--server", "0.0.0.0"], ["doctor", "--no-local", "--domain", "x.test", "--server", "[::]:53"],
            ["preflight", "--domain", "x.test", "--server", "224.0.0.251"], ["doctor", "h:65536"], ["browse", "--timeout=-1"],
        ])
    func unusableServersExitTwo(arguments: [String]) async throws {
        let result = try await runCommand(ClawnetBinary.path, arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Precondition"), "\(arguments): \(result.stderr)")
    }

    @Test(
        "doctor, zone and report: an unknown check, a bad pin, a bad --gateway spec, a bad address, `-` as an output",
        arguments: [
            ("doctor", ["--check", "gw.nope"], "checks are: openclaw.config"),
            ("doctor", ["--pin", "abc"], "not a SHA-256 fingerprint"),
            ("zone generate", ["--domain", "x.test", "--gateway", "ip=10.0.0.1"], "needs host=LABEL"),
            (
                "zone generate", ["--domain", "x.test", "--gateway", "host=a,ip=10.0.0.1", "--ns-address", "ns1"],
                "'ns1' is not an IP address"
            ),
            (
                "zone generate", ["--domain", "x.test", "--gateway", "host=a", "--ns-address", "10.0.0.53"],
                "--gateway host=a needs ip=ADDR"
            ),
            ("zone generate", ["--domain", "x.test"], "say what to publish"),
            ("zone check", ["f.db", "--server", "localhost"], "not an IP address"),
            // `-` reads standard input; as an output it would make a file named "-".
            ("zone generate", ["--domain", "x.test", "--out", "-"], "- is standard output, and clawnet writes files only"),
            ("zone generate", ["--domain", "x.test", "--out", "z.db", "--corefile", "-"], "- is standard output"),
            ("doctor", ["--emit-zone", "-"], "- is standard output"),
            ("report", ["--out", "-"], "- is standard output"),
            // Flags of --from-browse alone say so, rather than "say what to publish".
            ("zone generate", ["--domain", "x.test", "--manual", "10.0.0.1"], "--manual adds a Gateway for --from-browse to probe"),
            ("zone generate", ["--domain", "x.test", "--no-local", "--gateway", "host=a,ip=10.0.0.1"], "give --from-browse too"),
        ] as [(String, [String], String)])
    func badValues(command: String, arguments: [String], words: String) {
        let message = failure(Clawnet.self, command.split(separator: " ").map(String.init) + arguments) ?? ""
        #expect(message.contains(words), "\(command) \(arguments): \(message)")
    }

    @Test(
        "the binary: usage errors exit 2 with a message",
        arguments: [
            ["browse", "--type", "_bad"], ["browse", "--format", "yaml"], ["browse", "--watch", "--format", "json"],
            ["browse", "--timeout", "soon"], ["advertise"], ["advertise", "--name", String(repeating: "x", count: 64)],
            ["advertise", "--name", "x", "--port", "0"], ["advertise", "--name", "x", "--txt", "=v"], ["nonsense"],
            ["doctor", "--format", "jsonl"], ["preflight", "--format", "jsonl"], ["zone", "check", "/dev/null", "--format", "jsonl"],
            ["advertise", "--serve-only", "--name", "X"], ["advertise", "--name", "X", "--tls"],
            ["advertise", "--name", "X", "--serve", "--bind", "not-an-ip"], ["advertise", "--port", "1"],
            // Something only the user can give: CoreDNS's listening address, on a machine without Tailscale.
            [
                "zone", "generate", "--domain", "x.test", "--gateway", "host=a,ip=10.0.0.1", "--ns-address", "10.0.0.53", "--out",
                "/tmp/clawnet-no-bind-\(UUID().uuidString).db", "--corefile", "/tmp/clawnet-no-bind-\(UUID().uuidString).Corefile",
            ],
        ])
    func usageErrors(arguments: [String]) async throws {
        let result = try await runCommand(ClawnetBinary.path, arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("Error:") || result.stderr.contains("error:"), "\(arguments): \(result.stderr)")
    }

    @Test("the binary: browse --no-local with nothing to browse is a usage error with browse's own usage line")
    func nothingToBrowse() async throws {
        let result = try await runCommand(ClawnetBinary.path, ["browse", "--no-local"], environment: ["HOME": "/nonexistent"])
        #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("Error: nothing to browse with --no-local"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: clawnet browse "), "browse's usage, not the top level's: \(result.stderr)")
    }

    @Test("--json is --format json for browse, doctor, preflight and zone check")
    func jsonAlias() throws {
        #expect(try #require(parse(BrowseCommand.self, ["--json"])).output == .json)
        #expect(try #require(parse(DoctorCommand.self, ["--json"])).format.chosen == .json)
        #expect(try #require(parse(PreflightCommand.self, ["--json"])).format.chosen == .json)
        #expect(try #require(parse(ZoneCheckCommand.self, ["/dev/null", "--json"])).format.chosen == .json)
    }

    @Test(
        "output flags that contradict each other are a usage error naming both, in every command that has them",
        arguments: [
            ["browse", "--json", "--format", "table"], ["browse", "--format", "jsonl", "--json"],
            ["doctor", "--json", "--format", "table"],
            ["preflight", "--format", "table", "--json"], ["zone", "check", "/dev/null", "--json", "--format", "table"],
            ["preflight", "--quiet", "--verbose"], ["preflight", "--json", "--quiet"], ["preflight", "--quiet", "--format", "json"],
        ])
    func contradictingOutputFlags(arguments: [String]) {
        do {
            _ = try Clawnet.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed, but should not")
        } catch {
            let message = Clawnet.message(for: error)
            #expect(Clawnet.exitCode(for: error) == .validationFailure, "\(arguments): \(message)")
            for flag in arguments where flag.hasPrefix("--") {
                #expect(message.contains(flag), "\(arguments): \(flag) is not named in: \(message)")
            }
        }
    }

    @Test("flags that agree still parse: --json --format json, --quiet alone")
    func agreeingOutputFlags() throws {
        #expect(try #require(parse(DoctorCommand.self, ["--json", "--format", "json"])).format.chosen == .json)
        #expect(try #require(parse(BrowseCommand.self, ["--format", "jsonl"])).output == .jsonl)
        #expect(try #require(parse(PreflightCommand.self, ["--quiet"])).format.chosen == .table)
    }

    @Test(
        "every port flag says the same about a bad port: --port, HOST:PORT, ADDRESS[:PORT] and ADDRESS:PORT",
        arguments: [
            ["advertise", "--name", "x", "--port", "70000"], ["advertise", "--name", "x", "--port", "http"],
            ["watch", "--metrics-listen", "127.0.0.1:70000"], ["browse", "--manual", "gw:70000"], ["browse", "--server", "10.0.0.1:70000"],
            ["zone", "push", "--domain", "d.test", "--server", "10.0.0.1:70000"],
        ])
    func onePortMessage(arguments: [String]) {
        let bad = arguments.last!.split(separator: ":").last.map(String.init)!
        do {
            _ = try Clawnet.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed, but should not")
        } catch {
            let message = Clawnet.message(for: error)
            #expect(message.contains("'\(bad)' is not a port (1-65535)"), "\(arguments): \(message)")
        }
    }

    @Test("every flag that takes an IP address says the same about a bad one: --bind as --address")
    func oneAddressMessage() {
        for arguments in [
            ["advertise", "--name", "x", "--serve", "--bind", "not-an-ip"], ["advertise", "--name", "x", "--address", "not-an-ip"],
        ] {
            do {
                _ = try Clawnet.parseAsRoot(arguments)
                Issue.record("\(arguments) parsed, but should not")
            } catch {
                let message = Clawnet.message(for: error)
                #expect(message.contains("'not-an-ip' is not an IP address"), "\(arguments): \(message)")
            }
        }
    }

    @Test("--metrics-listen: port 0 lets the system choose; a host name is refused in the shared words")
    func metricsListen() throws {
        let command = try #require(parse(WatchCommand.self, ["--metrics-listen", "[::1]:0"]))
        #expect(command.metricsListen?.port == 0 && command.metricsListen?.host == "::1")
        let message = failure(WatchCommand.self, ["--metrics-listen", "localhost:9464"]) ?? ""
        #expect(message.contains("is not ADDRESS:PORT with an IP address"), "\(message)")
    }

    @Test("preflight takes targets, --pin and --no-local like doctor")
    func preflightTargets() throws {
        let pin = String(repeating: "ab", count: 32)
        let command = try #require(parse(PreflightCommand.self, ["wss://10.0.0.1:18789", "Studio (OpenClaw)", "--pin", pin, "--no-local"]))
        #expect(command.options.targets.map(\.text) == ["wss://10.0.0.1:18789", "Studio (OpenClaw)"])
        #expect(command.options.pin?.hex == pin && command.options.noLocal && !command.options.discovery.local)
        #expect(failure(PreflightCommand.self, ["--no-local", "--require", "mdns"])?.contains("contradict") == true)
    }

    @Test("advertise: --connect takes OpenClaw's outcomes; --name is required unless --serve-only, and the usage says so")
    func advertise() throws {
        let command = try #require(parse(AdvertiseCommand.self, ["--name", "X", "--serve", "--connect", "pairing-required"]))
        #expect(command.serving.connectOutcome == .pairingRequired)
        #expect(failure(AdvertiseCommand.self, ["--name", "X", "--connect", "hello-ok"])?.contains("go with --serve") == true)
        #expect(AdvertiseCommand.helpMessage().contains("clawnet advertise [<options>] --name <NAME>"))
        let wideArea = try #require(
            parse(AdvertiseCommand.self, ["--name", "X", "--domain", "openclaw.internal", "--server", "127.0.0.1"]))
        #expect(wideArea.wideArea.domain?.description == "openclaw.internal.", "advertise's domain is --domain, as every command's")
        let oldName = try #require(
            parse(AdvertiseCommand.self, ["--name", "X", "--wide-area", "openclaw.internal", "--server", "127.0.0.1"]))
        #expect(oldName.wideArea.domain == wideArea.wideArea.domain, "--wide-area, its old name, still works")
        #expect(!AdvertiseCommand.helpMessage().contains("--wide-area"), "the old name is not in the help")
    }

    @Test("the binary: --as-device and --token-file need a Gateway to go to (exit 2); a token file that is a directory is refused")
    func credentialsNeedATarget() async throws {
        let noTarget = try await runCommand(
            ClawnetBinary.path, ["doctor", "--token-file", "/etc/hostname"], environment: ["HOME": "/nonexistent"])
        #expect(noTarget.status == 2 && noTarget.stderr.contains("never sends them to every Gateway"), "\(noTarget.stderr)")
        let directory = try await runCommand(ClawnetBinary.path, ["doctor", "127.0.0.1:9", "--token-file", "/tmp"])
        #expect(directory.status == 2 && directory.stderr.contains("not a regular file"), "\(directory.stderr)")
    }

    @Test(
        "the binary: a name that is no command is a usage error that lists the commands, after help too",
        arguments: [
            (["help", "nonexist"], "no command 'nonexist'; commands: doctor, preflight, browse, advertise, zone, watch, report"),
            (["nonexist"], "no command 'nonexist'; commands: doctor,"),
            (["help", "zone", "nonexist"], "no command 'zone nonexist'; zone's commands: generate, push, check"),
            (["zone", "nonexist", "--json"], "no command 'zone nonexist'"),
        ])
    func unknownCommand(arguments: [String], message: String) async throws {
        let result = try await runCommand(ClawnetBinary.path, arguments)
        #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(arguments): no help on stdout: \(result.stdout)")
        #expect(result.stderr.contains("Error: " + message), "\(arguments): \(result.stderr)")
    }

    @Test("help COMMAND still prints that command's help and exits 0")
    func helpOfACommand() async throws {
        let result = try await runCommand(ClawnetBinary.path, ["help", "zone", "push"])
        #expect(result.status == 0 && result.stdout.contains("USAGE: clawnet zone push"), "\(result.stdout)\(result.stderr)")
    }

    @Test("watch --json is refused with the spelling watch takes, --format jsonl")
    func watchJSON() {
        let message = failure(WatchCommand.self, ["--json"]) ?? ""
        #expect(message.contains("use --format jsonl"), "\(message)")
        #expect(!WatchCommand.helpMessage().contains("--json"), "not in watch's help")
    }

    @Test("--help and --version exit 0; help documents the exit codes")
    func helpAndVersion() async throws {
        let help = try await runCommand(ClawnetBinary.path, ["browse", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Exit status:\n  0  "))
        let version = try await runCommand(ClawnetBinary.path, ["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("clawnet 0."))
    }
}
