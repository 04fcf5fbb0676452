import DNSSD
import DNSUpdate
import DNSWire
import Testing
import Zones

@testable import Output

/// The words of zone check's findings (FindingText), one case per detail: the zone tests assert
/// codes and values, these the English a person reads (and the JSON's `message` and `fix`).
@Suite("zone check findings: the words of each detail")
struct FindingTextTests {
    static let zone = try! DNSName(presentation: "openclaw.internal.")
    static let service = try! DNSName(presentation: "_openclaw-gw._tcp.openclaw.internal.")
    static let instance = try! DNSName(presentation: #"Studio\032\(OpenClaw\)._openclaw-gw._tcp.openclaw.internal."#)
    static let host = try! DNSName(presentation: "studio.openclaw.internal.")
    static let server = DNSServer(address: IPAddress("10.0.0.53")!)
    static let domain = try! DomainName(validating: "wrong.internal")
    static let i = "Studio\\032\\(OpenClaw\\)._openclaw-gw._tcp.openclaw.internal."

    static let zoneText: [(Finding.Detail, String, String?)] = [
        (
            .syntax("line 3: not an IPv4 address"), "syntax: line 3: not an IPv4 address",
            "this line does not parse (named-checkzone and kzonecheck will refuse it too)"
        ),
        (.syntaxWarning("TTL 4294967295 is above 2^31-1; BIND serves it as 0"), "TTL 4294967295 is above 2^31-1; BIND serves it as 0", nil),
        (
            .noApex, "no SOA record, and no --domain to say which zone this is",
            "add `@ IN SOA ns1 hostmaster <serial> 7200 3600 1209600 60`"
        ),
        (
            .domainMismatch(requested: domain, name: try! DNSName(presentation: "wrong.internal."), soa: zone, records: 7),
            "--domain wrong.internal. does not match the file: its SOA is at openclaw.internal., and none of its 7 records is in "
                + "wrong.internal.",
            "check the domain with `dig SOA wrong.internal`; to check this file as the zone openclaw.internal., give "
                + "`--domain openclaw.internal` or leave --domain out (the SOA names the zone)"
        ),
        (.outsideZone(host, apex: service), "studio.openclaw.internal. is outside the zone \(service)", "check $ORIGIN and trailing dots"),
        (.fragment(apex: zone), "a fragment: records to add to the zone openclaw.internal. (its SOA and NS are the zone's)", nil),
        (
            .soaCount(0, apex: zone), "no SOA record at openclaw.internal.",
            "keep one `@ IN SOA ns1 hostmaster <serial> 7200 3600 1209600 60`"
        ),
        (
            .soaCount(2, apex: zone), "2 SOA records at openclaw.internal.; a zone has exactly one",
            "keep one `@ IN SOA ns1 hostmaster <serial> 7200 3600 1209600 60`"
        ),
        (.serialDated(2_026_112_201), "SOA serial 2026112201 (YYYYMMDDnn)", nil),
        (
            .serialInFuture(2_031_010_101), "serial 2031010101 is dated in the future",
            "harmless, but `zone generate` can only count up from it"
        ),
        (
            .serialNotDated(42), "serial 42 is not in OpenClaw's YYYYMMDDnn form",
            "fine for DNS; `zone generate` moves it to the date form, never lower"
        ),
        (.soaMinimumLong(86400), "SOA minimum 86400 s: resolvers remember a missing name that long", "OpenClaw uses 60"),
        (.nsMissing(apex: zone), "no NS record at openclaw.internal.", "add `@ IN NS ns1` and `ns1 IN A <address>`"),
        (
            .nsWithoutAddress(try! DNSName(presentation: "ns1.openclaw.internal.")),
            "name server ns1.openclaw.internal. is in the zone but has no A or AAAA record", "add `ns1 IN A <address>`"
        ),
    ]

    static let instances: [(Finding.Detail, String, String?)] =
        [
            (
                .noServices, "no service PTR records: the zone publishes no Gateway",
                "`clawnet zone generate` writes `_openclaw-gw._tcp IN PTR <instance>._openclaw-gw._tcp`"
            ),
            (
                .ptrNotInstance(service: service, target: host),
                "PTR \(service) points to studio.openclaw.internal., which is not an instance of \(service)",
                "PTR targets must be <instance>.\(service)"
            ),
            (
                .instanceListedTwice(instance, firstLine: 7), "instance \(i) is listed twice (first on line 7); names compare without case",
                "keep one PTR per instance"
            ),
            (
                .instanceUnlisted(instance, type: .srv), "\(i) has SRV but no PTR lists it: nodes will not see it",
                "add `\(service) IN PTR \(i)` or remove it"
            ),
            (.instancesComplete(2, service: service), "2 instances of \(service) with SRV, TXT and addresses", nil),
            (
                .srvMissing(instance: instance), "'Studio (OpenClaw)' is listed by PTR but has no SRV record",
                "add `\(i) IN SRV 0 0 <port> <host>`"
            ),
            (
                .srvPortZero(instance: instance), "'Studio (OpenClaw)' has SRV port 0: it says it is not available",
                "use the gateway port (18789)"
            ),
            (
                .srvTargetCNAME(host, instance: instance),
                "SRV target studio.openclaw.internal. of 'Studio (OpenClaw)' is a CNAME; RFC 2782 wants the real host name",
                "point the SRV at the host's own name"
            ),
            (
                .srvTargetWithoutAddress(host, instance: instance),
                "SRV target studio.openclaw.internal. of 'Studio (OpenClaw)' has no A or AAAA record in the zone",
                "add `studio IN A <address>`"
            ),
            (
                .srvTargetOutside(host, instance: instance),
                "SRV target studio.openclaw.internal. of 'Studio (OpenClaw)' is outside the zone: its address cannot be checked here", nil
            ),
            (
                .txtMissing(instance: instance, port: 18789, openClaw: true),
                "'Studio (OpenClaw)' has no TXT record (RFC 6763 requires one; OpenClaw nodes read their hints from it)",
                "add `\(i) IN TXT \"role=gateway\" \"gatewayPort=18789\" ...`"
            ),
            (
                .txtMissing(instance: instance, port: 80, openClaw: false),
                "'Studio (OpenClaw)' has no TXT record (RFC 6763 requires one; OpenClaw nodes read their hints from it)",
                "add `\(i) IN TXT \"\"`"
            ),
            (.txtMultiple(instance: instance, count: 2), "'Studio (OpenClaw)' has 2 TXT records; clients read one", "merge them into one"),
            (
                .txtIssue(instance: instance, TXTIssue(.notAPort(key: "gatewayPort"), "gatewayPort=x is not a port")),
                "'Studio (OpenClaw)': gatewayPort=x is not a port", "write the port as a number (1-65535)"
            ),
            (
                .txtIssue(instance: instance, TXTIssue(.fingerprintMalformed, "gatewayTlsSha256 is not a SHA-256")),
                "'Studio (OpenClaw)': gatewayTlsSha256 is not a SHA-256",
                "gatewayTlsSha256 is 64 lower-case hex digits, the SHA-256 of the certificate's DER: `openssl x509 -in cert.pem -outform DER "
                    + "| sha256sum`"
            ),
            (.txtIssue(instance: instance, TXTIssue(.roleMissing, "no role key")), "'Studio (OpenClaw)': no role key", nil),
        ]
        // The TXT values a node reads with a shrug have no fix: the issue's message is the words.
        + ([
            .stringWithoutKey, .keyNotPrintable, .duplicateKey("k"), .valueNotUTF8("k"), .roleNotGateway, .notAFlag(key: "k"),
            .fingerprintNotCanonical, .fingerprintWithoutTLS,
        ] as [TXTIssue.Kind]).map { kind in
            (.txtIssue(instance: instance, TXTIssue(kind, "as DNSSD says it")), "'Studio (OpenClaw)': as DNSSD says it", nil)
        } + [
            (
                .txtPortMismatch(instance: instance, txt: 18790, srv: 18789),
                "'Studio (OpenClaw)': TXT gatewayPort 18790 differs from SRV port 18789",
                "make them equal; nodes connect to the SRV port"
            )
        ]

    static let sizes: [(Finding.Detail, String, String?)] = [
        (
            .ptrTooLarge(instances: 5000, service: service),
            "5000 instances of \(service): the PTR RRset may not fit in one DNS message (65535 bytes)",
            "split the Gateways across several domains (at most about 1,000 per domain)"
        ),
        (
            .bindSlabTooLarge(instances: 1500, bytes: 70_000),
            "1500 instances make a PTR RRset of 70000 bytes uncompressed: BIND refuses to load more than 65535 (\"ran out of space\"); "
                + "CoreDNS serves it, or split the Gateways across more domains",
            "serve the zone with CoreDNS, or split the Gateways across more domains"
        ),
        (
            .bindRecordsPerType(instances: 121, service: service),
            "121 instances of \(service): BIND 9.18.28+ refuses more than 100 records of one type at one name by default",
            "in named.conf options: `max-records-per-type 0;` (CoreDNS has no such limit)"
        ),
        (
            .txtTooLarge(instance, rdata: 70_000), "TXT of \(i) has 70000 bytes of RDATA: BIND refuses more than 65510",
            "keep the TXT small: OpenClaw's keys take a few hundred bytes"
        ),
        (
            .txtAnswerTooLarge(instance, rdata: 65_500, answer: 65_600),
            "TXT of \(i) has 65500 bytes of RDATA: its answer (65600 bytes) does not fit in one DNS message, so no server can send it",
            "keep the TXT small: OpenClaw's keys take a few hundred bytes"
        ),
        (.ttlZero(host, type: .a), "studio.openclaw.internal. A has TTL 0: every lookup goes to the server", "OpenClaw uses 60"),
        (
            .ttlLong(instance, type: .txt, ttl: 172_800), "\(i) TXT has TTL 172800: nodes keep a Gateway that moved for that long",
            "OpenClaw uses 60"
        ),
        (.notListed(more: 4800, of: .warn, listed: 200), "4800 more warnings of this kind are not listed (the first 200 are)", nil),
        (.notListed(more: 1, of: .fail, listed: 200), "1 more failures of this kind are not listed (the first 200 are)", nil),
    ]

    @Test("the zone's text, its apex, services and instances, sizes and TTLs", arguments: zoneText + instances + sizes)
    func linter(_ detail: Finding.Detail, message: String, fix: String?) {
        let words = FindingText.words(detail)
        #expect(words.message == message, "\(detail.code)")
        #expect(words.fix == fix, "\(detail.code)")
    }
}
