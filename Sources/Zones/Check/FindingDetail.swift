import DNSSD
import DNSUpdate
import DNSWire

extension Finding {
    /// What was found, with the values its words need (names, servers, counts); Output's
    /// `FindingText` makes the message and the fix, and `code` is what the JSON prints. The
    /// model is `ZoneError.Code`.
    package enum Detail: Sendable, Hashable {
        // The zone's text (ZoneLinter)
        /// A line the parser refuses, or reads otherwise than written (`message`, as ZoneFile says it).
        case syntax(String)
        case syntaxWarning(String)
        case noApex
        /// --domain `requested` (as `name`) holds none of the file's `records`; its SOA is at `soa`.
        case domainMismatch(requested: DomainName, name: DNSName, soa: DNSName, records: Int)
        case outsideZone(DNSName, apex: DNSName)
        case fragment(apex: DNSName)

        // The apex
        /// `count` SOA records at the apex (0: missing).
        case soaCount(Int, apex: DNSName)
        case serialDated(UInt32)
        case serialInFuture(UInt32)
        case serialNotDated(UInt32)
        case soaMinimumLong(UInt32)
        case nsMissing(apex: DNSName)
        case nsWithoutAddress(DNSName)

        // Services and instances
        case noServices
        case ptrNotInstance(service: DNSName, target: DNSName)
        case instanceListedTwice(DNSName, firstLine: Int)
        case instanceUnlisted(DNSName, type: RRType)
        case instancesComplete(Int, service: DNSName)
        case srvMissing(instance: DNSName)
        case srvPortZero(instance: DNSName)
        case srvTargetCNAME(DNSName, instance: DNSName)
        case srvTargetWithoutAddress(DNSName, instance: DNSName)
        case srvTargetOutside(DNSName, instance: DNSName)
        /// `port`: the SRV's, for the TXT the fix proposes; `openClaw`: a Gateway's service type.
        case txtMissing(instance: DNSName, port: UInt16, openClaw: Bool)
        case txtMultiple(instance: DNSName, count: Int)
        /// A TXT value a node reads with a shrug, or cannot use (one code per TXTIssue.Kind).
        case txtIssue(instance: DNSName, TXTIssue)
        case txtPortMismatch(instance: DNSName, txt: Int, srv: UInt16)

        // Sizes and TTLs
        case ptrTooLarge(instances: Int, service: DNSName)
        /// BIND's uncompressed copy of the PTR RRset, `bytes` long, past 64 KiB.
        case bindSlabTooLarge(instances: Int, bytes: Int)
        case bindRecordsPerType(instances: Int, service: DNSName)
        case txtTooLarge(DNSName, rdata: Int)
        case txtAnswerTooLarge(DNSName, rdata: Int, answer: Int)
        case ttlZero(DNSName, type: RRType)
        case ttlLong(DNSName, type: RRType, ttl: UInt32)
        /// Past the first `listed` findings of one severity (FindingList.limit): `more` were not listed.
        case notListed(more: Int, of: Severity, listed: Int)

        // The file against a server (LiveZoneComparison)
        /// The SOA question about `zone` got no answer: why, and the fix, as DNSQueryFailure says them.
        case serverNotAsked(DNSServer, zone: DNSName, failure: String, fix: String)
        /// The SOA question got an answer without an SOA (`explanation`, as StubResolver says it).
        case zoneNotServed(DNSServer, zone: DNSName, explanation: String)
        case serverBehindFile(DNSServer, served: UInt32, file: UInt32, zone: DNSName)
        case serverAheadOfFile(DNSServer, served: UInt32, file: UInt32)
        case contentWithoutSerialBump(DNSServer, serial: UInt32, [LiveZoneComparison.Difference])
        case contentDiffers(DNSServer, [LiveZoneComparison.Difference])
        case serverMatchesFile(DNSServer, serial: UInt32, instances: Int)
        case servicesNotCompared(services: Int, compared: Int, DNSServer)

        // The zone as served (ServedZoneChecks, ServerAgreement)
        /// The zone could not be read from a server.
        case serverUnreadable(UpdateFailure)
        /// `rcode` (REFUSED, NOTAUTH, NOTIMP, SERVFAIL) to `question` about `zone`.
        case serverRefuses(RCode, DNSServer, zone: DNSName, question: RefusingServer.Question)
        /// `answer`: what the transfer was answered (an RCODE, with `(BADKEY)` for a TSIG error).
        case transferRefused(DNSServer, zone: DNSName, answer: String?)
        /// `why`: the bound the transfer passed, as ServiceRegistration says it.
        case transferPastBound(String)
        /// One of the linter's findings on the zone as `server` serves it; `record`: its place in the transfer.
        indirect case served(Detail, server: DNSServer, record: Int?)
        case serverLags(String, zone: DNSName, serial: UInt32?, leaders: [String], newest: UInt32)
        /// `missing`/`extra`: the first record (in text order) `server` lacks or has beyond `reference`.
        case serversDiffer(String, reference: String, serial: UInt32, zone: DNSName, records: Int, missing: String?, extra: String?)
        case serversAgree([String], zone: DNSName, serial: UInt32, records: Int)
        case eightBitNamesRefused(DNSServer, instance: DNSName)
        case probesCapped(DNSServer, limit: Int, service: DNSName)
        /// `tried`: the addresses and ports tried, as `address:port`.
        case gatewayRefused(String, host: String, port: Int, tried: [String])
        case gatewayUnreachable(String, tried: [String])
        case gatewaysReachable(Int)
        /// --timeout ran out once `zone` was read from `servers`: `skipped` was not done.
        case timeoutAfterRead(zone: DNSName, servers: [DNSServer], skipped: ServedZoneChecks.Skipped)
    }
}

extension Finding.Detail {
    /// The code `clawnet.zonecheck.v3` prints for it.
    package var code: FindingCode {
        switch self {
        case .syntax: .syntax
        case .syntaxWarning: .syntaxWarning
        case .noApex: .noApex
        case .domainMismatch: .domainMismatch
        case .outsideZone: .outsideZone
        case .fragment: .fragment
        case .soaCount(let count, _): count == 0 ? .soaMissing : .soaDuplicate
        case .serialDated: .serialDated
        case .serialInFuture: .serialInFuture
        case .serialNotDated: .serialNotDated
        case .soaMinimumLong: .soaMinimumLong
        case .nsMissing: .nsMissing
        case .nsWithoutAddress: .nsWithoutAddress
        case .noServices: .noServices
        case .ptrNotInstance: .ptrNotInstance
        case .instanceListedTwice: .instanceListedTwice
        case .instanceUnlisted: .instanceUnlisted
        case .instancesComplete: .instancesComplete
        case .srvMissing: .srvMissing
        case .srvPortZero: .srvPortZero
        case .srvTargetCNAME: .srvTargetCNAME
        case .srvTargetWithoutAddress: .srvTargetWithoutAddress
        case .srvTargetOutside: .srvTargetOutside
        case .txtMissing: .txtMissing
        case .txtMultiple: .txtMultiple
        case .txtIssue(_, let issue): FindingCode(issue.kind)
        case .txtPortMismatch: .txtPortMismatch
        case .ptrTooLarge: .ptrTooLarge
        case .bindSlabTooLarge: .bindSlabTooLarge
        case .bindRecordsPerType: .bindRecordsPerType
        case .txtTooLarge: .txtTooLarge
        case .txtAnswerTooLarge: .txtAnswerTooLarge
        case .ttlZero: .ttlZero
        case .ttlLong: .ttlLong
        case .notListed: .notListed
        case .serverNotAsked, .serverUnreadable: .serverUnreadable
        case .zoneNotServed: .zoneNotServed
        case .serverBehindFile: .serverBehindFile
        case .serverAheadOfFile: .serverAheadOfFile
        case .contentWithoutSerialBump: .contentWithoutSerialBump
        case .contentDiffers: .contentDiffers
        case .serverMatchesFile: .serverMatchesFile
        case .servicesNotCompared: .servicesNotCompared
        case .serverRefuses: .serverRefuses
        case .transferRefused: .transferRefused
        case .transferPastBound: .transferPastBound
        case .served(let detail, _, _): detail.code
        case .serverLags: .serverLags
        case .serversDiffer: .serversDiffer
        case .serversAgree: .serversAgree
        case .eightBitNamesRefused: .eightBitNamesRefused
        case .probesCapped: .probesCapped
        case .gatewayRefused: .gatewayRefused
        case .gatewayUnreachable: .gatewayUnreachable
        case .gatewaysReachable: .gatewaysReachable
        case .timeoutAfterRead: .timeoutAfterRead
        }
    }
}
