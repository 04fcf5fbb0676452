import DNSClient
import DNSSD
import DNSWire

/// Why reading a zone or changing it did not work: a reason to decide on, a message that
/// names the server's RCODE and the cause, and a fix. No message ever holds a key's secret.
package struct UpdateFailure: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Reason: Sendable, Hashable {
        /// YXRRSET, NXRRSET, YXDOMAIN, NXDOMAIN: the zone is no longer what was read.
        case prerequisiteFailed
        /// NOTAUTH without a TSIG error: not the zone's server, or the key is not for this zone.
        case notAuthoritative
        /// REFUSED: the update policy or ACL does not allow it (or transfers are not allowed).
        case refused
        case notZone
        case notImplemented
        /// A transfer answered BADKEY: the key may update but not transfer (Knot), or is unknown;
        /// the UPDATE that follows tells which.
        case transferDenied
        /// TSIG: the server does not know the key, the secret differs, or the clocks differ.
        case badKey, badSignature, clockSkew
        /// The answer's own signature does not hold, or is missing.
        case answerNotVerified
        /// SERVFAIL, FORMERR and other codes.
        case serverFailure
        /// Timeout, nothing listening, a malformed answer.
        case transport
        /// Past a bound: one Gateway's records do not fit in one DNS message, or a zone is larger
        /// than clawnet transfers or holds (ZoneTransfer, RecordStore.Bounds.zone).
        case tooLarge
        /// A registration would replace the addresses of a host another Gateway's SRV points to:
        /// that Gateway would move too, and nothing could put it back safely.
        case sharedHost
    }

    package let reason: Reason
    package let rcode: RCode?
    package let message: String
    package let fix: String?

    package init(_ reason: Reason, rcode: RCode? = nil, _ message: String, fix: String? = nil) {
        self.reason = reason
        self.rcode = rcode
        self.message = message
        self.fix = fix
    }

    package var description: String { fix.map { "\(message) (fix: \($0))" } ?? message }

    /// What was asked of the server when it answered with an error.
    enum Operation: Sendable, CustomStringConvertible {
        case update, transfer, serial

        var description: String {
            switch self {
            case .update: "UPDATE"
            case .transfer: "zone transfer (AXFR)"
            case .serial: "SOA question"
            }
        }
    }

    static func transport(_ failure: DNSQueryFailure) -> UpdateFailure {
        UpdateFailure(.transport, "\(failure)", fix: "check --server (the zone's primary, ADDRESS[:PORT]) and that it listens on TCP")
    }

    /// The failure an answer stands for: its RCODE, read together with the TSIG outcome.
    static func answer(
        _ rcode: RCode, tsig: TSIGVerifier.Outcome?, server: DNSServer, zone: DNSName, key: TSIGKey?, operation: Operation, now: UInt64
    ) -> UpdateFailure {
        let keyText = key.map { "\($0)" } ?? "no key"
        if case .serverError(let error, let serverTime)? = tsig {
            return signatureRefused(
                error, serverTime: serverTime, rcode: rcode, server: server, keyText: keyText, operation: operation, now: now)
        }
        switch rcode {
        case .nxDomain where operation != .update:
            // A question, not an UPDATE: no prerequisite was asked; the server has no such zone.
            return UpdateFailure(
                .notZone, rcode: rcode, "\(server) answered NXDOMAIN to the \(operation): it serves no zone \(zone)",
                fix: "check the zone (--domain) and the server (its primary or a secondary that has the zone)")
        case .yxRRSet, .nxRRSet, .yxDomain, .nxDomain:
            return UpdateFailure(
                .prerequisiteFailed, rcode: rcode,
                "\(server) answered \(rcode): a prerequisite failed; someone else changed the records of \(zone) between clawnet's read "
                    + "and its update",
                fix: "run again: clawnet reads the zone anew and sends what is still needed")
        case .notAuth:
            return UpdateFailure(
                .notAuthoritative, rcode: rcode,
                "\(server) answered NOTAUTH to the \(operation): it is not authoritative for \(zone), or does not accept \(keyText) for it",
                fix:
                    "check the zone (--domain) and --server (its primary), and that the server has the key "
                    + "and allows it for this zone"
            )
        case .refused:
            return UpdateFailure(
                .refused, rcode: rcode,
                "\(server) answered REFUSED to the \(operation): its policy does not let \(keyText) do this in \(zone)",
                fix:
                    "BIND: `update-policy { grant NAME zonesub ANY; };` in the zone; Knot: an acl with `key: NAME` and `action: update` "
                    + "(and `transfer` to read by AXFR) on the zone"
            )
        case .notZone:
            return UpdateFailure(
                .notZone, rcode: rcode, "\(server) answered NOTZONE: a name of the \(operation) is outside \(zone)",
                fix: "check the zone (--domain)")
        case .notImp where operation == .update:
            return UpdateFailure(
                .notImplemented, rcode: rcode,
                "\(server) answered NOTIMP (not implemented) to the UPDATE for \(zone): this server takes no dynamic updates at all "
                    + "(NSD, CoreDNS without its dynupdate plugin, a server with updates turned off)",
                fix:
                    "push to a primary that takes dynamic updates (BIND, Knot, PowerDNS with `dnsupdate=yes`), or write the zone file "
                    + "this server loads: `clawnet zone generate --out FILE`"
            )
        case .notImp:
            return UpdateFailure(
                .notImplemented, rcode: rcode, "\(server) answered NOTIMP (not implemented) to the \(operation) for \(zone)")
        case .servFail where operation == .update:
            return UpdateFailure(
                .serverFailure, rcode: rcode, "\(server) answered SERVFAIL: it could not apply the UPDATE to \(zone) (its log says why)",
                fix:
                    "BIND 9.18.28+ refuses more than 100 records of one type at one name unless `max-records-per-type 0;` is set in its "
                    + "options; past about 1,000 Gateways split them across domains"
            )
        default:
            return UpdateFailure(.serverFailure, rcode: rcode, "\(server) answered \(rcode) to the \(operation) for \(zone)")
        }
    }

    /// The server's TSIG error (RFC 8945 5.2): it did not accept the request's signature.
    private static func signatureRefused(
        _ error: TSIGError, serverTime: UInt64?, rcode: RCode, server: DNSServer, keyText: String, operation: Operation, now: UInt64
    ) -> UpdateFailure {
        switch error {
        case .badKey where operation == .transfer:
            // Knot answers so when the key's ACL has `update` but not `transfer` (its
            // least-privilege setup): the key is known, the transfer refused.
            return UpdateFailure(
                .transferDenied, rcode: rcode,
                "\(server) answered \(rcode) (BADKEY) to the \(operation): it refuses the transfer to \(keyText) (Knot's answer when "
                    + "the key's acl has `update` but not `transfer`), or does not know the key",
                fix: "to read by AXFR, add `transfer` to the key's acl actions (Knot) or `allow-transfer { key NAME; };` (BIND)")
        case .badKey:
            return UpdateFailure(
                .badKey, rcode: rcode, "\(server) answered \(rcode) (BADKEY) to the \(operation): it does not know \(keyText)",
                fix:
                    "the key's name and algorithm must be the server's: BIND `key \"NAME\" { algorithm ...; secret ...; };` in "
                    + "named.conf, Knot `key: - id: NAME` in knot.conf"
            )
        case .badSig:
            return UpdateFailure(
                .badSignature, rcode: rcode,
                "\(server) answered \(rcode) (BADSIG) to the \(operation): the signature does not match; the server has another secret "
                    + "for \(keyText)",
                fix: "copy the key file from the server again (what tsig-keygen or keymgr -t wrote)")
        case .badTime:
            let skew = serverTime.map { " by \(Int64(bitPattern: $0) - Int64(bitPattern: now)) s (server minus this machine)" } ?? ""
            return UpdateFailure(
                .clockSkew, rcode: rcode,
                "\(server) answered \(rcode) (BADTIME) to the \(operation): this machine's clock and the server's differ\(skew), more "
                    + "than TSIG's 300 s fudge allows (clock skew)",
                fix: "set both clocks right (NTP: chrony, systemd-timesyncd, `timedatectl set-ntp true`)")
        default:
            return UpdateFailure(
                .badSignature, rcode: rcode, "\(server) answered \(rcode) (\(error)) to the \(operation) signed with \(keyText)")
        }
    }

    static func unverified(_ failure: TSIGFailure, server: DNSServer, key: TSIGKey) -> UpdateFailure {
        switch failure {
        case .clockSkew(let seconds, let fudge):
            UpdateFailure(
                .clockSkew,
                "the answer of \(server) was signed \(seconds) s from this machine's clock, more than its \(fudge) s fudge (clock skew)",
                fix: "set both clocks right (NTP)")
        case .badMAC:
            UpdateFailure(
                .answerNotVerified,
                "the signature on the answer of \(server) does not verify with \(key): it was changed on the way, or the server has "
                    + "another secret"
            )
        case .otherKey(let detail):
            UpdateFailure(.answerNotVerified, "the answer of \(server) is \(detail)")
        case .tooManyUnsigned:
            UpdateFailure(
                .answerNotVerified,
                "\(server) sent more than \(TSIGVerifier.maxUnsignedInARow) unsigned messages in a row in the transfer (RFC 8945 allows 99)"
            )
        case .lastUnsigned:
            UpdateFailure(.answerNotVerified, "the transfer from \(server) ended on an unsigned message")
        }
    }
}
