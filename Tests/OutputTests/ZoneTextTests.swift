import DNSSD
import DNSUpdate
import Probes
import Testing
import Zones

@testable import Output

/// The words of zone errors and notes (ZoneErrorText, ZoneNoteText), one case per code: the
/// zone tests assert codes and values, these the English a person reads.
@Suite("zone errors and notes: the words of each code")
struct ZoneTextTests {
    static let domain = try! DomainName(validating: "openclaw.internal")
    static let refused = UpdateFailure(.refused, "10.0.0.53 answered REFUSED", fix: "allow this key to update the zone")

    static let errors: [(ZoneError.Code, String, String?)] = [
        (.inventoryUnusable(path: "fleet.json", reason: "not valid JSON"), "--inventory fleet.json: not valid JSON", nil),
        (
            .thisHostWithoutTailnet(host: "studio"),
            "--this-host: this machine has no Tailscale address, so its Gateway's SRV target would have no A or AAAA record; nothing was "
                + "written", "bring Tailscale up (`tailscale up`), or publish it with --gateway host=studio,ip=ADDRESS"
        ),
        (
            .removalRefused(
                .zoneFile(path: "/srv/z.db"),
                sources: [
                    GatheredGateways.Listing(
                        source: .browse, found: 0, failures: [.browse(DiscoveryIssue(source: .mdns, kind: .busMissing, .busAccessDenied))]),
                    GatheredGateways.Listing(source: .inventory(path: "f.json"), found: 0, failures: []),
                ]),
            "--from-browse failed (browse: D-Bus policy denies access to avahi-daemon); --inventory f.json gave no Gateway that can be "
                + "published: a failed or empty source is no reason to remove Gateways, so /srv/z.db is left as it is",
            "check what browse finds (`clawnet browse`) or the inventory; to write the zone anyway, print it (no --out)"
        ),
        (
            .removalRefused(.prune(zone: domain), sources: [GatheredGateways.Listing(source: .browse, found: 0, failures: [])]),
            "--from-browse gave no Gateway that can be published: a failed or empty source is no reason to remove Gateways, so every "
                + "instance in openclaw.internal. is left as it is",
            "check what browse finds (`clawnet browse`) or the inventory; or push without --prune"
        ),
        (
            .noNameServerAddress, "no address for ns1, the zone's name server",
            "give --ns-address IP (the address CoreDNS listens on, e.g. this machine's Tailscale address)"
        ),
        (.invalidName(DNSSDError(.name, "a DNS label must be 1 to 63 bytes")), "a DNS label must be 1 to 63 bytes", nil),
        (
            .ptrRRsetTooLarge(instances: 1200, type: .gateway, bytes: 70_000),
            "1200 instances of _openclaw-gw._tcp make a PTR RRset of about 70000 bytes; one DNS message holds at most 65535",
            "split the Gateways across several domains (at most about 1,000 per domain) and browse each"
        ),
        (
            .gatewayUnpublishable(ZoneGateway.Problem(gateway: "a", .port(0))), "'a' has port 0; an SRV port is 1 to 65535",
            "change or leave out that Gateway; nothing was written"
        ),
        (
            .zoneFileForeign(path: "/srv/z.db"),
            "/srv/z.db holds content neither clawnet nor OpenClaw's Gateway writes (a zone of another domain, or records zone generate "
                + "does not write); it is not replaced",
            "move it away or give --out a new path; to change a zone a server already serves, use `clawnet zone push`"
        ),
        (
            .notWritten(reason: "/srv is not writable"), "/srv is not writable; nothing written",
            "give --out and --corefile regular files this user owns, or new paths"
        ),
        (
            .notRead(reason: "/dev/zero is not a regular file"), "/dev/zero is not a regular file",
            "check that the file named is the one meant (a regular file this user can read)"
        ),
        (.noListenAddress, "no address for CoreDNS to listen on", "give --bind IP (this machine has no Tailscale address)"),
        (
            .pathControlCharacter("\u{1B}"),
            "the zone's path holds a control character (\\027), which would break the Corefile's `file` line",
            "give --out a path without control characters"
        ),
        (
            .pathCorefileSyntax, "the zone's path holds `\"`, `\\`, `{$` or `{%`, which CoreDNS would read differently in its Corefile",
            "give --out a path without them"
        ),
        (
            .corefileNotUTF8(path: "/etc/Corefile"),
            "/etc/Corefile is not UTF-8 text; clawnet edits only a Corefile it can keep byte for byte",
            "check that --corefile names the Corefile"
        ),
        (
            .corefileMarkersUnpaired(domain: domain, lines: [3, 9, 12]),
            "the Corefile has clawnet's marker lines for openclaw.internal, but not as one begin line followed by one end line "
                + "(lines 3, 9, 12)", "keep one pair of marker lines around clawnet's block, or remove the markers and that block"
        ),
        (
            .corefileUnreadable,
            "the Corefile's structure cannot be read with certainty (an unbalanced `{`, or a block without braces before another), so "
                + "clawnet will not add to it", "check it with `coredns -conf FILE -plugins`, or give --corefile a new file and import it"
        ),
        (
            .corefileForeignBlock(domain: domain, line: 11, key: "openclaw.internal:53"),
            "the Corefile already has a server block for openclaw.internal on port 53 that clawnet did not write (line 11: "
                + "`openclaw.internal:53`); it is left as it is",
            "remove that block or merge it by hand; or, to let clawnet manage it, put the lines `# clawnet zone generate: "
                + "openclaw.internal (begin; clawnet rewrites the lines up to the end marker)` before it and `# clawnet zone generate: "
                + "openclaw.internal (end)` after it"
        ),
        (
            .nameTaken(name: "Studio", domain: domain, holder: "other.openclaw.internal.:18789"),
            "\"Studio\" is already registered in openclaw.internal. for other.openclaw.internal.:18789",
            "choose another --name, or remove that record"
        ),
        (
            .withdrawFailed(name: "Studio", domain: domain, failure: refused, remaining: ["a 60 IN A 10.0.0.1"], ledger: "/l.json"),
            "could not withdraw \"Studio\" from openclaw.internal.: 10.0.0.53 answered REFUSED; still there: a 60 IN A 10.0.0.1",
            "allow this key to update the zone; or run the same advertise again and stop it: it adopts them and withdraws them "
                + "(/l.json lists them)"
        ),
        (
            .withdrawFailed(name: "Studio", domain: domain, failure: UpdateFailure(.transport, "timed out"), remaining: [], ledger: "/l"),
            "could not withdraw \"Studio\" from openclaw.internal.: timed out; still there: nothing known",
            "or run the same advertise again and stop it: it adopts them and withdraws them (/l lists them)"
        ),
    ]

    @Test("each error code has its message and fix", arguments: errors)
    func error(code: ZoneError.Code, message: String, fix: String?) {
        let error = ZoneError(code)
        #expect(error.message == message)
        #expect(error.fix == fix)
    }

    static let lan = [IPAddress("192.168.1.5")!, IPAddress("fe80::1")!]

    static let notes: [(ZoneNote, String)] = [
        (
            .certificateUnreadable(path: "/h/cert.pem"),
            "TLS is on but /h/cert.pem has no readable certificate: gatewayTlsSha256 is left out"
        ),
        (
            .sourceFailed(.inventory(path: "f.json"), failure: .saved(source: "unicast", message: "x\u{1B}")),
            "--inventory f.json: the browse that wrote it reported unicast: x\\027"
        ),
        (
            .sourceFailed(.browse, failure: .browseTimedOut(.seconds(5))),
            "--from-browse: browse: stopped at the 5s timeout before every path reported all it knows"
        ),
        (
            .sourceFailed(.browse, failure: .browse(DiscoveryIssue(source: .unicast, kind: .dnsError, .resolvConf(problem: "no answer")))),
            "--from-browse: browse: no answer"
        ),
        (
            .outsideZones(domain: domain, count: 2, inventory: "f.json"),
            "2 Gateways of openclaw.internal. in --inventory f.json are in no zone of --domain: with several --domain, a Gateway goes "
                + "to the zone its beacon names"
        ),
        (
            .outsideZones(domain: nil, count: 1, inventory: "f.json"),
            "1 Gateway of no domain in --inventory f.json is in no zone of --domain: with several --domain, a Gateway goes to the zone "
                + "its beacon names"
        ),
        (.manualTargetSkipped(name: "10.0.0.1:18789"), "skipped manual target 10.0.0.1:18789: it has no instance name or TXT to publish"),
        (.noPortSkipped(name: "a"), "skipped 'a': it has no usable SRV port"),
        (
            .noRoutableAddressSkipped(name: "a"),
            "skipped 'a': it has no routable address (only link-local or loopback), so its host would have no A/AAAA record"
        ),
        (
            .unpublishableSkipped(ZoneGateway.Problem(gateway: "a", .noAddress(host: "h", domain: domain))),
            "skipped 'a' has no address: its SRV target h.openclaw.internal. would have no A or AAAA record"
        ),
        (
            .noTailnetAddressSkipped(name: "a", lan: lan),
            "skipped 'a': it has no tailnet address, only 192.168.1.5, fe80::1 (--tailnet-only)"
        ),
        (.lanAddressesLeftOut(name: "a", lan: lan), "'a': left out its non-tailnet address(es) 192.168.1.5, fe80::1 (--tailnet-only)"),
        (
            .lanAddressesPublished(name: "a", lan: lan),
            "'a' is published with non-tailnet address(es) 192.168.1.5, fe80::1: nodes on the tailnet cannot reach them "
                + "(--tailnet-only publishes only 100.64.0.0/10 and fd7a:115c:a1e0::/48)"
        ),
        (.noTimeToCheck(count: 3), "no time was left to check whether the 3 Gateways answer (raise --timeout)"),
        (
            .didNotAnswer(
                name: "a", port: 18789,
                attempts: [
                    TCPAttempt(address: IPAddress("100.64.0.1")!, outcome: .refused, elapsed: .zero),
                    TCPAttempt(address: IPAddress("100.64.0.2")!, outcome: .failed("bad\u{1B}"), elapsed: .zero),
                ]),
            "'a' did not answer on port 18789 (100.64.0.1: refused; 100.64.0.2: bad\\027); it is published anyway: is it running, and "
                + "listening on that address?"
        ),
        (
            .instanceRenamed(name: "gateway", published: "gateway (2)"),
            "two Gateways are named 'gateway'; the second is published as 'gateway (2)'"
        ),
        (
            .hostRenamed(host: "box", gateway: "gateway (2)", published: "box-2"),
            "host 'box' of 'gateway (2)' has other addresses than another host of that name; published as 'box-2'"
        ),
        (
            .bindSlabTooLarge(instances: 1000, bytes: 70_000),
            "1000 instances make a PTR RRset of 70000 bytes uncompressed: BIND refuses to load more than 65535 (\"ran out of space\"); "
                + "CoreDNS serves it, or split the Gateways across more domains"
        ),
        (
            .bindRecordsPerType(instances: 150),
            "150 instances: BIND 9.18.28+ refuses more than 100 records of one type at one name unless `max-records-per-type 0;` is set "
                + "in its options (CoreDNS has no such limit)"
        ),
    ]

    static let problems: [(ZoneGateway.Problem.Kind, String)] = [
        (.port(70_000), "'a' has port 70000; an SRV port is 1 to 65535"),
        (.hostLabel("Bad_\u{1B}"), "'a' has host label 'Bad_\\027'; a host label is 1 to 63 of a-z, 0-9 and '-'"),
        (
            .instanceNameTooLong(type: .gateway, domain: domain),
            "'a'._openclaw-gw._tcp.openclaw.internal. is longer than a DNS name may be (255 bytes)"
        ),
        (
            .srvTargetTooLong(host: "h", domain: domain),
            "'a': its SRV target h.openclaw.internal. is longer than a DNS name may be (255 bytes)"
        ),
        (.noAddress(host: "h", domain: domain), "'a' has no address: its SRV target h.openclaw.internal. would have no A or AAAA record"),
        (
            .txtTooLarge(rdata: 72_000, answer: 72_080),
            "'a' has a TXT record of 72000 bytes: its answer (72080 bytes) does not fit in one DNS message (65535); BIND and Knot "
                + "refuse such a zone"
        ),
        (
            .txtValue(TXTIssue(.notAPort(key: "gatewayPort"), "gatewayPort 'x' is not a port")),
            "'a': gatewayPort 'x' is not a port"
        ),
        (
            .txtPortMismatch(advertised: 18790, port: 18789),
            "'a': TXT gatewayPort 18790 differs from SRV port 18789; nodes would not know which to use"
        ),
    ]

    @Test("each reason a Gateway cannot be published has its words", arguments: problems)
    func problem(kind: ZoneGateway.Problem.Kind, text: String) {
        #expect(ZoneGatewayProblemText.text(ZoneGateway.Problem(gateway: "a", kind)) == text)
    }

    @Test("each note has its words, printed as `note: ...`", arguments: notes)
    func note(note: ZoneNote, text: String) {
        #expect(ZoneNoteText.text(note) == text)
        var transcript = Transcript()
        transcript.notes([note])
        #expect(transcript.parts.map(\.lines) == [["note: \(text)"]] && transcript.parts.first?.stream == .err, "\(transcript.parts)")
    }
}
