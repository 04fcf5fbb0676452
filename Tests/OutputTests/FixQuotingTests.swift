import DNSSD
import Host
import TestSupport
import Testing
import Zones

@testable import Doctor
@testable import Output
@testable import Probes

/// Issue 30: fix lines pasted a Gateway's requestId, paths from unit files and host names from
/// the network into shell commands unquoted (`openclaw devices approve abc $(curl ...|sh)`).
/// Every fix that builds a command from outside text, fed each hostile value, is run by a real
/// /bin/sh against recording stubs (`ShellCommands`): nothing is injected, and the value
/// arrives as it was, inside one argument.
@Suite("fix lines: outside text in a command is one shell word")
struct FixQuotingTests {
    typealias Fix = @Sendable (String) -> String

    static let fixes: [(String, Fix)] = [
        ("identity invalid: a path from a unit's OPENCLAW_STATE_DIR", { identity(.identityInvalid, path: "/srv/\($0)/device.json") }),
        ("identity unreadable: the path and the user", { identity(.identityUnreadable, path: "/srv/\($0)/device.json", user: $0) }),
        ("identity exposed: the path", { identity(.identityExposed, path: "/srv/\($0)/device.json") }),
        (
            "config unreadable: the config's path",
            { CheckText.config(.configUnreadable, config(path: "/home/\($0)/openclaw.json")).fix ?? "" }
        ),
        ("name not found: the host", { CheckText.dns(.nameNotFound, DNSEvidence(host: $0, addresses: [], problem: nil)).fix ?? "" }),
        ("no mDNS answer: the host", { CheckText.dns(.localNameUnanswered, DNSEvidence(host: $0, addresses: [], problem: nil)).fix ?? "" }),
        (
            "no address for a .local host",
            { CheckText.dns(.noAddress, DNSEvidence(host: $0 + ".local", addresses: [], problem: nil)).fix ?? "" }
        ),
        ("no address for a DNS host", { CheckText.dns(.noAddress, DNSEvidence(host: $0, addresses: [], problem: nil)).fix ?? "" }),
        ("only avahi-daemon resolves it: the host", { onlyAvahi(host: $0) }),
        ("re-pin after a renewal: the host", { CheckText.repin($0, port: 443) }),
        ("a TLS server asked in plain HTTP: the Host header", { CheckText.tlsFix($0) }),
        ("an unpinned certificate: the Host header", { unpinned(hostHeader: $0) }),
        ("split DNS through resolved: the link's name", { resolved(link: $0) }),
        (
            "a secret file others can read: its path",
            { SecretFileWarning(path: "/home/\($0)/token", mode: 0o644, kind: .token)?.description ?? "" }
        ),
        ("zone generate's next steps: the Corefile's and the zone's paths", { nextSteps(path: "/srv/\($0)") }),
    ]

    @Test("each fix, each hostile value: no injected call, the value intact in one argument", arguments: fixes.indices)
    func quoted(index: Int) throws {
        let (name, fix) = Self.fixes[index]
        for value in ShellCommands.hostileValues {
            let text = fix(value)
            let calls = try ShellCommands.run(text)
            #expect(!calls.contains { $0.name == ShellCommands.injected }, "\(name), \(value): \(text) made \(calls)")
            #expect(calls.contains { $0.arguments.contains { $0.contains(value) } }, "\(name), \(value): \(text) made \(calls)")
        }
    }

    @Test("plain values stay plain: a path, a host and a requestId without special characters are not quoted")
    func plainStaysPlain() {
        #expect(ShellWord.quoted("/home/alice/.openclaw/openclaw.json") == "/home/alice/.openclaw/openclaw.json")
        #expect(ShellWord.quoted("studio.tail1234.ts.net:443") == "studio.tail1234.ts.net:443")
        #expect(ShellWord.quoted("") == "''")
        #expect(ShellWord.quoted("~root") == "'~root'")
        #expect(ShellWord.quoted("x`pwned`y") == "'x`pwned`y'")
        #expect(ShellWord.quoted("it's") == #"'it'\''s'"#)
        let id = "6f1c2a4e-9b3d-4c8e-a1f2-0d5e7b9c3a81"
        #expect(Self.pairing(requestId: id).contains("`openclaw devices approve -- \(id)`"))
    }

    /// Issue 31: a Gateway that sent `requestId:"--latest"` had doctor print `openclaw devices
    /// approve --latest`, which approves the newest pending request, maybe the attacker's.
    @Test(
        "a requestId without OpenClaw's shape (a UUID) stays out of the command",
        arguments: ["--latest", "-h", "6f1c2a4e-9b3d-4c8e-a1f2-0d5e7b9c3a81\n--latest", "req-9", "6f1c2a4e9b3d4c8ea1f20d5e7b9c3a81"]
            + ShellCommands.hostileValues)
    func invalidRequestId(value: String) throws {
        let fix = Self.pairing(requestId: value)
        let calls = try ShellCommands.run(fix)
        let approve = calls.filter { $0.name == "openclaw" && $0.arguments.starts(with: ["devices", "approve"]) }
        #expect(
            approve.count == 1 && approve.allSatisfy { $0.arguments == ["devices", "approve", "--", "placeholder"] }, "\(fix): \(calls)")
        #expect(!calls.contains { $0.name == ShellCommands.injected }, "\(fix): \(calls)")
        #expect(fix.contains("the request id the Gateway sent is not a valid id"), "\(fix)")
    }

    @Test(
        "a requestId OpenClaw made is approved by its id, after `--`",
        arguments: ["6f1c2a4e-9b3d-4c8e-a1f2-0d5e7b9c3a81", "6F1C2A4E-9B3D-4C8E-A1F2-0D5E7B9C3A81"])
    func validRequestId(value: String) throws {
        let fix = Self.pairing(requestId: value)
        let calls = try ShellCommands.run(fix)
        #expect(calls.contains { $0.name == "openclaw" && $0.arguments == ["devices", "approve", "--", value] }, "\(fix): \(calls)")
    }

    /// Outside text that starts like an option (`-h`, `--latest`), a dig query option (`+tcp`)
    /// or a server (`@evil`): each program that gets it reads it as an operand.
    static let optionLike = ["-h", "--latest", "+tcp", "@192.0.2.66", "-x $(pwned)"]

    static let operandFixes: [(String, Fix)] = [
        ("name not found: dig", { CheckText.dns(.nameNotFound, DNSEvidence(host: $0, addresses: [], problem: nil)).fix ?? "" }),
        (
            "no mDNS answer: avahi-resolve",
            { CheckText.dns(.localNameUnanswered, DNSEvidence(host: $0, addresses: [], problem: nil)).fix ?? "" }
        ),
        ("no address for a DNS host: dig", { CheckText.dns(.noAddress, DNSEvidence(host: $0, addresses: [], problem: nil)).fix ?? "" }),
        ("only avahi-daemon resolves it: getent", { onlyAvahi(host: $0) }),
        ("identity exposed: chmod", { identity(.identityExposed, path: $0) }),
        ("identity invalid: mv", { identity(.identityInvalid, path: $0) }),
    ]

    @Test("outside text that starts like an option lands after `--` or dig's `-q`", arguments: operandFixes.indices)
    func operands(index: Int) throws {
        let (name, fix) = Self.operandFixes[index]
        for value in Self.optionLike {
            let text = fix(value)
            let calls = try ShellCommands.run(text)
            let holding = calls.filter { $0.arguments.contains { $0.contains(value) } }
            #expect(!holding.isEmpty && !calls.contains { $0.name == ShellCommands.injected }, "\(name), \(value): \(text) made \(calls)")
            for call in holding {
                #expect(Self.readsAsOperand(value, in: call.arguments), "\(name), \(value): \(text) made \(call)")
            }
        }
    }

    /// Every argument that holds `value` comes after `--` or right after dig's `-q`.
    static func readsAsOperand(_ value: String, in arguments: [String]) -> Bool {
        arguments.indices.allSatisfy { index in
            let argument = arguments[index]
            guard argument.contains(value) else { return true }
            return arguments[..<index].contains("--") || (index > 0 && arguments[index - 1] == "-q")
        }
    }

    static func pairing(requestId: String) -> String {
        let error = ConnectError(
            code: "NOT_PAIRED", message: "pairing required", detailCode: "PAIRING_REQUIRED", requestId: requestId, reason: nil,
            recommendedNextStep: nil, canRetryWithDeviceToken: nil, expectedProtocol: nil, clientMinProtocol: 4, clientMaxProtocol: 4,
            retryAfterMs: nil)
        return CheckText.pairing(error, said: "refused", evidence: connect(hostHeader: "gw:18789")).fix ?? ""
    }

    static func connect(hostHeader: String) -> ConnectEvidence {
        ConnectEvidence(
            phase: PhaseTiming(outcome: .timedOut, elapsed: .zero), offered: .none, decision: nil, budget: .seconds(5), host: "gw",
            port: 18789, hostHeader: hostHeader)
    }

    static func identity(_ reason: CheckReason, path: String, user: String = "alice") -> String {
        let state: IdentityFileState = reason == .identityExposed ? .valid(deviceId: "d1", storedIdMatches: true) : .invalid("no key")
        let file = IdentityFile(
            path: path, readers: [.sudoUser(user)], state: state, owner: 0, mode: reason == .identityExposed ? 0o644 : 0o600,
            deniedTo: reason == .identityUnreadable ? [user] : [])
        return CheckText.identity(reason, IdentityEvidence(files: [file], isNode: true)).fix ?? ""
    }

    static func config(path: String) -> ConfigEvidence {
        var config = OpenClawConfig(path: path)
        config.warnings = ["\(path): cannot read the file"]
        return ConfigEvidence(config: config, asNode: false)
    }

    static func onlyAvahi(host: String) -> String {
        let evidence = DNSEvidence(
            host: host, addresses: [IPAddress("192.168.1.30")!], problem: DNSProblem("no address", kind: .onlyAvahi(nssMdns: true)))
        return CheckText.dns(.localNameOnlyByAvahi, evidence).fix ?? ""
    }

    static func unpinned(hostHeader: String) -> String {
        let observed = TLSFingerprint(digest: [UInt8](repeating: 0xAB, count: 32))
        return CheckText.withholding(.unverifiedCertificate(observed: observed, chain: .selfSigned), connect(hostHeader: hostHeader)).fix
    }

    static func resolved(link: String) -> String {
        let domain = try! DomainName(validating: "openclaw.internal")
        return DiagnosisText.resolvedRoute(domain, ResolvedStatus.Link(name: link), routedBy: []).fix
    }

    /// The two shell lines of the next steps, in backquotes as a fix line has them.
    static func nextSteps(path: String) -> String {
        let steps = CorefileWriter.nextSteps(
            domain: try! DomainName(validating: "openclaw.internal"), bind: [IPAddress("100.64.0.53")!], corefilePath: path + "/Corefile",
            zonePath: path + "/zone.db")
        let shellLines = steps.split(separator: "\n").compactMap { line -> String? in
            for marker in ["in a shell: ", "Verify: "] {
                if let command = line.firstRange(of: marker) { return String(line.suffix(from: command.upperBound)) }
            }
            return nil
        }
        return shellLines.map { "`\($0)`" }.joined(separator: " ")
    }
}
