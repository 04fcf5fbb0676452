import DNSSD
import Foundation
import Testing

@testable import Zones

/// `--corefile` edits a Corefile the operator owns: clawnet's stanza, between its markers, is
/// added or replaced; every other byte stays; someone else's block for the zone is refused.
@Suite("Corefile editing")
struct CorefileEditTests {
    let operatorFile = """
        # my resolver
        . {
            forward . 9.9.9.9 1.1.1.1
            cache 30
        }

        example.org:53 {
            file /etc/coredns/example.org.db
        }
        """

    func stanza(_ path: String = "/etc/coredns/openclaw.internal.db") throws -> String {
        try CorefileWriter.stanza(domain: domain, bind: [IPAddress("100.64.0.53")!], zonePath: path)
    }

    @Test("a new Corefile holds the marked stanza")
    func fresh() throws {
        let text = try CorefileEdit.apply(try stanza(), domain: domain, to: nil)
        #expect(text.hasPrefix(CorefileEdit.beginMarker(domain) + "\nopenclaw.internal:53 {\n"))
        #expect(text.hasSuffix("}\n" + CorefileEdit.endMarker(domain) + "\n"))
        #expect(CorefileBlocks(text).serving(zone: "openclaw.internal.", port: 53).count == 1)
    }

    @Test("an operator's Corefile is kept byte for byte; the stanza is appended, then updated in place")
    func insertThenUpdate() throws {
        let first = try CorefileEdit.apply(try stanza(), domain: domain, to: operatorFile)
        #expect(first.hasPrefix(operatorFile), "the operator's bytes come first, unchanged")
        #expect(first.contains("forward . 9.9.9.9 1.1.1.1"))
        // The operator adds a block after clawnet's; the next run changes only clawnet's lines.
        let edited = first + "\nlab.internal {\n    whoami\n}\n"
        let second = try CorefileEdit.apply(try stanza("/srv/other.db"), domain: domain, to: edited)
        let begin = try #require(edited.range(of: CorefileEdit.beginMarker(domain)))
        let end = try #require(edited.range(of: CorefileEdit.endMarker(domain) + "\n"))
        #expect(second.hasPrefix(String(edited[..<begin.lowerBound])))
        #expect(second.hasSuffix(String(edited[end.upperBound...])))
        #expect(second.contains("file /srv/other.db {") && !second.contains("file /etc/coredns/openclaw.internal.db"))
        #expect(try CorefileEdit.apply(try stanza("/srv/other.db"), domain: domain, to: second) == second, "idempotent")
    }

    @Test(
        "a block for the same zone and port that clawnet did not write is refused, named by line",
        arguments: [
            "openclaw.internal {\n  whoami\n}\n", "openclaw.internal:53 {\n}\n", "dns://OpenClaw.Internal.:53 {\n}\n",
            "example.org openclaw.internal {\n}\n", "example.org,\nopenclaw.internal {\n}\n", "\"openclaw.internal\" {\n}\n",
        ])
    func foreignBlock(block: String) throws {
        let ours = try stanza()
        let error = #expect(throws: ZoneError.self, "a foreign block was not noticed: \(block)") {
            try CorefileEdit.apply(ours, domain: domain, to: operatorFile + "\n\n" + block)
        }
        guard case .corefileForeignBlock(let named, let line, _)? = error?.code else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(named == domain && line == 11, "\(String(describing: error))")
    }

    @Test(
        "other ports, transports, zones and comments are not the same block",
        arguments: [
            "openclaw.internal:5353 {\n}\n", "tls://openclaw.internal {\n}\n", "sub.openclaw.internal {\n}\n",
            "# openclaw.internal {\n", ". {\n  # openclaw.internal:53 {\n}\n", "internal {\n  rewrite name openclaw.internal x\n}\n",
        ])
    func notTheSameBlock(block: String) throws {
        let text = try CorefileEdit.apply(try stanza(), domain: domain, to: operatorFile + "\n" + block)
        #expect(text.hasPrefix(operatorFile + "\n" + block))
    }

    @Test("broken markers or braces: nothing is added")
    func unreadable() throws {
        let marked = try CorefileEdit.apply(try stanza(), domain: domain, to: operatorFile)
        let twice = marked + "\n" + CorefileEdit.beginMarker(domain) + "\n"
        let lines = twice.split(separator: "\n", omittingEmptySubsequences: false)
        let markers = lines.indices.filter { lines[$0].hasPrefix("# clawnet zone generate:") }.map { $0 + 1 }
        #expect(markers.count == 3, "\(twice)")
        #expect(throws: ZoneError(.corefileMarkersUnpaired(domain: domain, lines: markers))) {
            try CorefileEdit.apply(try stanza(), domain: domain, to: twice)
        }
        #expect(throws: ZoneError(.corefileUnreadable)) {
            try CorefileEdit.apply(try stanza(), domain: domain, to: ". {\n  forward . 9.9.9.9\n")
        }
    }

    @Test("a Corefile with CRLF line ends is edited in place too")
    func crlf() throws {
        let windows = operatorFile.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n"
        let first = try CorefileEdit.apply(try stanza(), domain: domain, to: windows)
        #expect(first.hasPrefix(windows))
        let second = try CorefileEdit.apply(try stanza("/srv/b.db"), domain: domain, to: first)
        #expect(second.hasPrefix(windows) && second.contains("/srv/b.db"))
        #expect(CorefileBlocks(second).serving(zone: "openclaw.internal.", port: 53).count == 1)
    }
}
