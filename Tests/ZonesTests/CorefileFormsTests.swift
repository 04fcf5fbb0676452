import DNSSD
import Foundation
import Testing

@testable import Zones

/// The three ways CoreDNS serves a zone (coredns.io/plugins/file, /auto, /secondary, and
/// /transfer for what a secondary needs from its primary). CoreDNS cannot run here: each form is
/// checked against its exact text and by a reading that follows CoreDNS's Corefile lexer
/// (coredns/caddy caddyfile/lexer.go: tokens split on white space, `{` and `}` open and close
/// a block), and the `auto` pattern by what it matches.
@Suite("Corefile stanzas: file, auto, secondary")
struct CorefileFormsTests {
    let domain = try! DomainName(validating: "openclaw.internal")
    let bind = [IPAddress("100.101.102.103")!]

    @Test("auto: a directory of <domain>.db files with a pattern that matches them")
    func auto() throws {
        let stanza = try CorefileWriter.stanza(domain: domain, bind: bind, serving: .auto(directory: "/etc/coredns/zones"))
        #expect(
            stanza == #"""
                openclaw.internal:53 {
                  bind 100.101.102.103
                  auto {
                    directory /etc/coredns/zones ^([^.].*)\.db$ {1}
                    reload 10s
                  }
                  errors
                  log
                }

                """#)
        let block = try #require(Self.blocks(stanza).first)
        #expect(block.key == "openclaw.internal:53")
        #expect(block.directives.map(\.name) == ["bind", "auto", "errors", "log"])
        let auto = try #require(block.directives.first { $0.name == "auto" })
        #expect(auto.body.map(\.name) == ["directory", "reload"])
        #expect(
            auto.body.first?.arguments == ["/etc/coredns/zones", CorefileWriter.autoPattern, "{1}"], "three tokens: DIR REGEXP TEMPLATE")
    }

    @Test("secondary: transferred from the primaries zone push feeds (port 53 left out, another port kept)")
    func secondary() throws {
        let primaries = [DNSServer(address: IPAddress("100.64.0.53")!), DNSServer(address: IPAddress("fd7a:115c:a1e0::53")!, port: 5353)]
        let stanza = try CorefileWriter.stanza(domain: domain, bind: bind, serving: .secondary(primaries: primaries))
        #expect(
            stanza == """
                openclaw.internal:53 {
                  bind 100.101.102.103
                  secondary {
                    transfer from 100.64.0.53 [fd7a:115c:a1e0::53]:5353
                  }
                  errors
                  log
                }

                """)
        let block = try #require(Self.blocks(stanza).first)
        #expect(block.directives.map(\.name) == ["bind", "secondary", "errors", "log"])
        #expect(block.directives[1].body.first?.arguments == ["from", "100.64.0.53", "[fd7a:115c:a1e0::53]:5353"])
    }

    @Test("file (the default) reads the same as before: one block, file with reload")
    func file() throws {
        let stanza = try CorefileWriter.stanza(domain: domain, bind: bind, serving: .file("/etc/coredns/openclaw.internal.db"))
        #expect(stanza == (try CorefileWriter.stanza(domain: domain, bind: bind, zonePath: "/etc/coredns/openclaw.internal.db")))
        let block = try #require(Self.blocks(stanza).first)
        #expect(block.directives.map(\.name) == ["bind", "file", "errors", "log"])
        #expect(block.directives[1].body.map(\.name) == ["reload"])
    }

    /// Go's regexp (RE2) and Python's `re` agree on this pattern's subset (anchors, a negated
    /// class, `.*`, an escaped dot, one group): Python checks what CoreDNS's `auto` would load
    /// (coredns plugin/auto walk.go `matches`: FindStringSubmatchIndex on the base name, then
    /// the template expanded). Names with a newline are left out: there Python's `$` differs.
    @Test("the auto pattern loads <domain>.db and nothing else in the folder; CoreDNS's default pattern would load none of them")
    func autoPattern() async throws {
        let names = [
            "openclaw.internal.db", "shard07.openclaw.internal.db", "openclaw.internal.db~", "openclaw.internal.db.bak",
            ".openclaw.internal.db.k3x9q", "db.openclaw.internal", "Corefile", "x.db.db",
        ]
        let script = """
            import re, sys
            for name in sys.argv[3:]:
                match = re.search(sys.argv[1], name)
                origin = match.expand(sys.argv[2].replace("{", "\\\\g<").replace("}", ">")) if match else "-"
                print(name, origin)
            """
        func origins(_ pattern: String) throws -> [String: String] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, pattern, CorefileWriter.autoOriginTemplate] + names
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return Dictionary(
                uniqueKeysWithValues: text.split(separator: "\n").map { line in
                    let parts = line.split(separator: " ")
                    return (String(parts[0]), String(parts[1]))
                })
        }
        let ours = try origins(CorefileWriter.autoPattern)
        #expect(
            ours == [
                "openclaw.internal.db": "openclaw.internal", "shard07.openclaw.internal.db": "shard07.openclaw.internal",
                "openclaw.internal.db~": "-", "openclaw.internal.db.bak": "-", ".openclaw.internal.db.k3x9q": "-",
                "db.openclaw.internal": "-", "Corefile": "-", "x.db.db": "x.db",
            ], "\(ours)")
        let defaults = try origins(#"db\.(.*)"#)
        #expect(defaults["openclaw.internal.db"] == "-" && defaults["db.openclaw.internal"] == "openclaw.internal", "\(defaults)")
    }

    struct Directive {
        var name: String
        var arguments: [String]
        var body: [Directive]
    }

    /// Server blocks as CoreDNS's lexer reads them: tokens split on white space; a line's
    /// first token is a directive, a `{` at its end opens the directive's block.
    static func blocks(_ text: String) throws -> [(key: String, directives: [Directive])] {
        var lines = text.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }.filter { !$0.isEmpty }[
            ...]
        func parseBody() throws -> [Directive] {
            var body: [Directive] = []
            while let line = lines.popFirst() {
                if line == ["}"] { return body }
                if line.last == "{" {
                    body.append(Directive(name: line[0], arguments: Array(line.dropFirst().dropLast()), body: try parseBody()))
                } else {
                    body.append(Directive(name: line[0], arguments: Array(line.dropFirst()), body: []))
                }
            }
            throw CorefileReadError()
        }
        var blocks: [(key: String, directives: [Directive])] = []
        while let line = lines.popFirst() {
            guard line.count == 2, line[1] == "{" else { throw CorefileReadError() }
            blocks.append((line[0], try parseBody()))
        }
        return blocks
    }

    struct CorefileReadError: Error {}
}
