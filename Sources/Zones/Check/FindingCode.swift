import DNSSD

/// Why `zone check` reports a finding: one stable code per distinct outcome, for tests and
/// scripts to match instead of the English of the message. The raw value is what
/// `clawnet.zonecheck.v3` prints as `code` (as v2 did); a code is never renamed or reused (a rename is a
/// new schema version). docs/zones.md lists them with their meaning.
package enum FindingCode: String, Sendable, Hashable, Codable, CaseIterable {
    // The zone's text (ZoneLinter)
    /// A line BIND or Knot refuses (ZoneFile.problems); one it reads otherwise (a TTL above 2^31-1).
    case syntax, syntaxWarning
    /// No SOA and no --domain: the zone's apex is unknown.
    case noApex
    /// --domain names a zone that none of the file's records is in (the SOA names another).
    case domainMismatch
    case outsideZone
    /// The file is a fragment (`doctor --emit-zone`): its SOA and NS are the zone's.
    case fragment

    // The apex
    case soaMissing, soaDuplicate, serialDated, serialInFuture, serialNotDated, soaMinimumLong
    case nsMissing, nsWithoutAddress

    // Services and instances
    case noServices, ptrNotInstance, instanceListedTwice, instanceUnlisted, instancesComplete
    case srvMissing, srvPortZero, srvTargetCNAME, srvTargetWithoutAddress, srvTargetOutside
    case txtMissing, txtMultiple, txtPortMismatch
    /// A TXT value a node reads with a shrug, or cannot use (TXTIssue.Kind, one code each).
    case txtStringWithoutKey, txtKeyNotPrintable, txtDuplicateKey, txtValueNotUTF8, txtRoleMissing, txtRoleNotGateway
    case txtNotAPort, txtNotAFlag, txtFingerprintNotCanonical, txtFingerprintMalformed, txtFingerprintWithoutTLS

    // Sizes and TTLs
    case ptrTooLarge, bindSlabTooLarge, bindRecordsPerType, txtTooLarge, txtAnswerTooLarge, ttlZero, ttlLong
    /// Past FindingList.limit findings of one severity: how many more were not listed.
    case notListed

    // The file against a server (LiveZoneComparison)
    case zoneNotServed, serverBehindFile, serverAheadOfFile, contentWithoutSerialBump, contentDiffers, serverMatchesFile
    case servicesNotCompared

    // The zone as served (ServedZoneChecks, ServerAgreement)
    case serverUnreadable, transferRefused, transferPastBound
    /// The server answered REFUSED, NOTAUTH, NOTIMP or SERVFAIL to a question about the zone (RefusingServer).
    case serverRefuses
    case serverLags, serversDiffer, serversAgree
    /// SERVFAIL to a question for an instance name with bytes such as `(` (PowerDNS without 8bit-dns).
    case eightBitNamesRefused
    case probesCapped, gatewayRefused, gatewayUnreachable, gatewaysReachable
    /// --timeout ran out once the zone was read: what comes after the reads was not done.
    case timeoutAfterRead
}

extension FindingCode {
    /// The code of a TXT value ZoneLinter reports.
    init(_ kind: TXTIssue.Kind) {
        switch kind {
        case .stringWithoutKey: self = .txtStringWithoutKey
        case .keyNotPrintable: self = .txtKeyNotPrintable
        case .duplicateKey: self = .txtDuplicateKey
        case .valueNotUTF8: self = .txtValueNotUTF8
        case .roleMissing: self = .txtRoleMissing
        case .roleNotGateway: self = .txtRoleNotGateway
        case .notAPort: self = .txtNotAPort
        case .notAFlag: self = .txtNotAFlag
        case .fingerprintNotCanonical: self = .txtFingerprintNotCanonical
        case .fingerprintMalformed: self = .txtFingerprintMalformed
        case .fingerprintWithoutTLS: self = .txtFingerprintWithoutTLS
        }
    }
}
