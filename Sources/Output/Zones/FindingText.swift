import DNSSD
import DNSWire
import Zones

/// The words of a `zone check` finding, written from its detail: the message, and the fix.
/// The one place a `Finding` becomes English, as `ZoneErrorText` is for a zone command's error.
/// The zone's text here; the file against a server and the zone as served in +Servers.
struct FindingText: Equatable {
    let message: String
    let fix: String?

    init(_ message: String, fix: String? = nil) {
        self.message = message
        self.fix = fix
    }

    init(_ finding: Finding) {
        self = Self.words(finding.detail)
    }

    static func words(_ detail: Finding.Detail) -> FindingText {
        if let text = apex(detail) ?? instances(detail) ?? sizes(detail) ?? servers(detail) { return text }
        switch detail {
        case .syntax(let message):
            return FindingText(
                "syntax: \(message)", fix: "this line does not parse (named-checkzone and kzonecheck will refuse it too)")
        case .syntaxWarning(let message):
            return FindingText(message)
        case .noApex:
            return FindingText(
                "no SOA record, and no --domain to say which zone this is",
                fix: "add `@ IN SOA ns1 hostmaster <serial> 7200 3600 1209600 60`")
        case .domainMismatch(let requested, let name, let soa, let records):
            return FindingText(
                "--domain \(name) does not match the file: its SOA is at \(soa), and none of its \(records) records is in \(name)",
                fix: "check the domain with `dig SOA \(ShellWord.quoted(requested.withoutTrailingDot))`; to check this file as the zone "
                    + "\(soa), give `\(ShellWord.option("--domain", soa.description.dropLast()))` or leave --domain out (the SOA names the "
                    + "zone)")
        case .outsideZone(let name, let apex):
            return FindingText("\(name) is outside the zone \(apex)", fix: "check $ORIGIN and trailing dots")
        case .fragment(let apex):
            return FindingText("a fragment: records to add to the zone \(apex) (its SOA and NS are the zone's)")
        case .notListed(let more, let severity, let listed):
            let kind = severity == .fail ? "failures" : severity == .warn ? "warnings" : "passes"
            return FindingText("\(more) more \(kind) of this kind are not listed (the first \(listed) are)")
        default:
            // Every other detail is worded by one of the functions above.
            return FindingText("\(detail.code.rawValue)")
        }
    }

    /// The SOA and NS records at the apex.
    private static func apex(_ detail: Finding.Detail) -> FindingText? {
        switch detail {
        case .soaCount(let count, let apex):
            FindingText(
                count == 0 ? "no SOA record at \(apex)" : "\(count) SOA records at \(apex); a zone has exactly one",
                fix: "keep one `@ IN SOA ns1 hostmaster <serial> 7200 3600 1209600 60`")
        case .serialInFuture(let serial):
            FindingText("serial \(serial) is dated in the future", fix: "harmless, but `zone generate` can only count up from it")
        case .serialDated(let serial):
            FindingText("SOA serial \(serial) (YYYYMMDDnn)")
        case .serialNotDated(let serial):
            FindingText(
                "serial \(serial) is not in OpenClaw's YYYYMMDDnn form",
                fix: "fine for DNS; `zone generate` moves it to the date form, never lower")
        case .soaMinimumLong(let minimum):
            FindingText("SOA minimum \(minimum) s: resolvers remember a missing name that long", fix: "OpenClaw uses 60")
        case .nsMissing(let apex):
            FindingText("no NS record at \(apex)", fix: "add `@ IN NS ns1` and `ns1 IN A <address>`")
        case .nsWithoutAddress(let target):
            FindingText(
                "name server \(target) is in the zone but has no A or AAAA record",
                fix: "add `\(firstLabel(target, or: "ns1")) IN A <address>`")
        default: nil
        }
    }

    /// Services, their instances, and each instance's SRV and TXT.
    private static func instances(_ detail: Finding.Detail) -> FindingText? {
        switch detail {
        case .noServices:
            FindingText(
                "no service PTR records: the zone publishes no Gateway",
                fix: "`clawnet zone generate` writes `_openclaw-gw._tcp IN PTR <instance>._openclaw-gw._tcp`")
        case .ptrNotInstance(let service, let target):
            FindingText(
                "PTR \(service) points to \(target), which is not an instance of \(service)",
                fix: "PTR targets must be <instance>.\(service)")
        case .instanceListedTwice(let target, let firstLine):
            FindingText(
                "instance \(target) is listed twice (first on line \(firstLine)); names compare without case",
                fix: "keep one PTR per instance")
        case .instanceUnlisted(let name, let type):
            FindingText(
                "\(name) has \(type) but no PTR lists it: nodes will not see it", fix: "add `\(name.parent) IN PTR \(name)` or remove it")
        case .instancesComplete(let count, let service):
            FindingText("\(Plural.counted(count, "instance")) of \(service) with SRV, TXT and addresses")
        case .srvMissing(let name):
            FindingText("'\(display(name))' is listed by PTR but has no SRV record", fix: "add `\(name) IN SRV 0 0 <port> <host>`")
        case .srvPortZero(let name):
            FindingText("'\(display(name))' has SRV port 0: it says it is not available", fix: "use the gateway port (18789)")
        case .srvTargetCNAME(let target, let name):
            FindingText(
                "SRV target \(target) of '\(display(name))' is a CNAME; RFC 2782 wants the real host name",
                fix: "point the SRV at the host's own name")
        case .srvTargetWithoutAddress(let target, let name):
            FindingText(
                "SRV target \(target) of '\(display(name))' has no A or AAAA record in the zone",
                fix: "add `\(firstLabel(target, or: "host")) IN A <address>`")
        case .srvTargetOutside(let target, let name):
            FindingText("SRV target \(target) of '\(display(name))' is outside the zone: its address cannot be checked here")
        case .txtMissing(let name, let port, let openClaw):
            FindingText(
                "'\(display(name))' has no TXT record (RFC 6763 requires one; OpenClaw nodes read their hints from it)",
                fix: openClaw ? "add `\(name) IN TXT \"role=gateway\" \"gatewayPort=\(port)\" ...`" : "add `\(name) IN TXT \"\"`")
        case .txtMultiple(let name, let count):
            FindingText("'\(display(name))' has \(count) TXT records; clients read one", fix: "merge them into one")
        case .txtIssue(let name, let issue):
            FindingText("'\(display(name))': \(issue.message)", fix: fix(for: issue))
        case .txtPortMismatch(let name, let txt, let srv):
            FindingText(
                "'\(display(name))': TXT gatewayPort \(txt) differs from SRV port \(srv)",
                fix: "make them equal; nodes connect to the SRV port")
        default: nil
        }
    }

    /// How to repair a TXT value a node cannot use; warnings need no fix.
    private static func fix(for issue: TXTIssue) -> String? {
        switch issue.kind {
        case .fingerprintMalformed:
            "gatewayTlsSha256 is 64 lower-case hex digits, the SHA-256 of the certificate's DER: `openssl x509 -in cert.pem -outform DER | "
                + "sha256sum`"
        case .notAPort:
            "write the port as a number (1-65535)"
        default:
            nil
        }
    }

    /// Sizes the servers refuse, and TTLs.
    private static func sizes(_ detail: Finding.Detail) -> FindingText? {
        switch detail {
        case .ptrTooLarge(let count, let service):
            FindingText(
                "\(count) instances of \(service): the PTR RRset may not fit in one DNS message (\(ZoneWriter.maxMessageBytes) bytes)",
                fix: "split the Gateways across several domains (at most about 1,000 per domain)")
        case .bindSlabTooLarge(let count, let bytes):
            FindingText(
                "\(count) instances make a PTR RRset of \(bytes) bytes uncompressed: BIND refuses to load more than 65535 (\"ran out of "
                    + "space\"); CoreDNS serves it, or split the Gateways across more domains",
                fix: "serve the zone with CoreDNS, or split the Gateways across more domains")
        case .bindRecordsPerType(let count, let service):
            FindingText(
                "\(count) instances of \(service): BIND 9.18.28+ refuses more than \(ZoneWriter.bindRecordsPerType) records of one "
                    + "type at one name by default",
                fix: "in named.conf options: `max-records-per-type 0;` (CoreDNS has no such limit)")
        case .txtTooLarge(let owner, let rdata):
            FindingText(
                "TXT of \(owner) has \(rdata) bytes of RDATA: BIND refuses more than \(ZoneFile.bindMaxTXTRDATA)",
                fix: "keep the TXT small: OpenClaw's keys take a few hundred bytes")
        case .txtAnswerTooLarge(let owner, let rdata, let answer):
            FindingText(
                "TXT of \(owner) has \(rdata) bytes of RDATA: its answer (\(answer) bytes) does not fit in one DNS message, so no server "
                    + "can send it",
                fix: "keep the TXT small: OpenClaw's keys take a few hundred bytes")
        case .ttlZero(let name, let type):
            FindingText("\(name) \(type) has TTL 0: every lookup goes to the server", fix: "OpenClaw uses 60")
        case .ttlLong(let name, let type, let ttl):
            FindingText("\(name) \(type) has TTL \(ttl): nodes keep a Gateway that moved for that long", fix: "OpenClaw uses 60")
        default: nil
        }
    }

    /// An instance's name as the messages quote it: its first label, shown safely.
    static func display(_ instance: DNSName) -> String {
        instance.labels.first.map { SafeText.display($0) } ?? "\(instance)"
    }

    /// The first label of a host in the zone, for the record a fix proposes.
    private static func firstLabel(_ host: DNSName, or fallback: String) -> String {
        host.labels.first.map { Presentation.escapeLabel($0) } ?? fallback
    }
}
