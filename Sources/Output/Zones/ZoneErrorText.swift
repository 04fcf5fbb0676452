import DNSSD
import DNSUpdate
import Zones

/// The words of a zone command's error, written from its code and values: the message, and
/// the fix. The one place a `ZoneError` becomes English, as `CheckText` is for doctor's checks.
struct ZoneErrorText: Equatable {
    let message: String
    let fix: String?

    init(_ message: String, fix: String? = nil) {
        self.message = message
        self.fix = fix
    }

    init(_ error: ZoneError) {
        self = Self.words(error.code)
    }

    static func words(_ code: ZoneError.Code) -> ZoneErrorText {
        switch code {
        case .inventoryUnusable(let path, let reason):
            ZoneErrorText("--inventory \(path): \(reason)")
        case .thisHostWithoutTailnet(let host):
            ZoneErrorText(
                "--this-host: this machine has no Tailscale address, so its Gateway's SRV target would have no A or AAAA record; "
                    + "nothing was written",
                fix: "bring Tailscale up (`tailscale up`), or publish it with --gateway host=\(host),ip=ADDRESS")
        case .removalRefused(let removal, let sources):
            removalRefused(removal, sources)
        case .noNameServerAddress:
            ZoneErrorText(
                "no address for ns1, the zone's name server",
                fix: "give --ns-address IP (the address CoreDNS listens on, e.g. this machine's Tailscale address)")
        case .invalidName(let error):
            ZoneErrorText(error.message)
        case .ptrRRsetTooLarge(let instances, let type, let bytes):
            ZoneErrorText(
                "\(instances) instances of \(type.name) make a PTR RRset of about \(bytes) bytes; one DNS message holds at most "
                    + "\(ZoneWriter.maxMessageBytes)",
                fix: "split the Gateways across several domains (at most about 1,000 per domain) and browse each")
        case .gatewayUnpublishable(let problem):
            ZoneErrorText(ZoneGatewayProblemText.text(problem), fix: "change or leave out that Gateway; nothing was written")
        case .zoneFileForeign(let path):
            ZoneErrorText(
                "\(path) holds content neither clawnet nor OpenClaw's Gateway writes (a zone of another domain, or records zone "
                    + "generate does not write); it is not replaced",
                fix: "move it away or give --out a new path; to change a zone a server already serves, use `clawnet zone push`")
        case .notWritten(let reason):
            ZoneErrorText("\(reason); nothing written", fix: "give --out and --corefile regular files this user owns, or new paths")
        case .notRead(let reason):
            ZoneErrorText(reason, fix: "check that the file named is the one meant (a regular file this user can read)")
        case .noListenAddress:
            ZoneErrorText("no address for CoreDNS to listen on", fix: "give --bind IP (this machine has no Tailscale address)")
        case .nameTaken(let name, let domain, let holder):
            ZoneErrorText(
                "\"\(name)\" is already registered in \(domain.name) for \(holder)", fix: "choose another --name, or remove that record")
        case .withdrawFailed(let name, let domain, let failure, let remaining, let ledger):
            withdrawFailed(name, domain, failure, remaining: remaining, ledger: ledger)
        case .pathControlCharacter(let character): path(character: character)
        case .pathCorefileSyntax: path(character: nil)
        case .corefileNotUTF8(let path):
            ZoneErrorText(
                "\(path) is not UTF-8 text; clawnet edits only a Corefile it can keep byte for byte",
                fix: "check that --corefile names the Corefile")
        case .corefileMarkersUnpaired(let domain, let lines): markersUnpaired(domain, lines: lines)
        case .corefileUnreadable:
            ZoneErrorText(
                "the Corefile's structure cannot be read with certainty (an unbalanced `{`, or a block without braces before another), "
                    + "so clawnet will not add to it",
                fix: "check it with `coredns -conf FILE -plugins`, or give --corefile a new file and import it")
        case .corefileForeignBlock(let domain, let line, let key): foreignBlock(domain, line: line, key: key)
        }
    }

    /// A source at fault, what stays as it is, and what to do instead.
    static func removalRefused(_ removal: GatheredGateways.Removal, _ sources: [GatheredGateways.Listing]) -> ZoneErrorText {
        let reasons = sources.map { listing in
            listing.failures.isEmpty
                ? "\(listing.source.flag) gave no Gateway that can be published"
                : "\(listing.source.flag) failed (\(listing.failures.map(ZoneNoteText.failure).joined(separator: "; ")))"
        }
        let (kept, instead) =
            switch removal {
            case .zoneFile(let path): (path, "to write the zone anyway, print it (no --out)")
            case .prune(let zone): ("every instance in \(zone.name)", "or push without --prune")
            }
        return ZoneErrorText(
            "\(reasons.joined(separator: "; ")): a failed or empty source is no reason to remove Gateways, so \(kept) is left as it is",
            fix: "check what browse finds (`clawnet browse`) or the inventory; \(instead)")
    }

    static func withdrawFailed(
        _ name: String, _ domain: DomainName, _ failure: UpdateFailure, remaining: [String], ledger: String
    ) -> ZoneErrorText {
        ZoneErrorText(
            "could not withdraw \"\(name)\" from \(domain.name): \(failure.message); still there: "
                + (remaining.isEmpty ? "nothing known" : remaining.joined(separator: "; ")),
            fix: (failure.fix.map { "\($0); " } ?? "")
                + "or run the same advertise again and stop it: it adopts them and withdraws them (\(ledger) lists them)")
    }

    /// The zone's path cannot be a Corefile token: a control character, or else `"`, `\`, `{$`, `{%`.
    static func path(character: String?) -> ZoneErrorText {
        guard let character else {
            return ZoneErrorText(
                "the zone's path holds `\"`, `\\`, `{$` or `{%`, which CoreDNS would read differently in its Corefile",
                fix: "give --out a path without them")
        }
        return ZoneErrorText(
            "the zone's path holds a control character (\(SafeText.display(Array(character.utf8)))), which would break the "
                + "Corefile's `file` line",
            fix: "give --out a path without control characters")
    }

    static func markersUnpaired(_ domain: DomainName, lines: [Int]) -> ZoneErrorText {
        ZoneErrorText(
            "the Corefile has clawnet's marker lines for \(domain.withoutTrailingDot), but not as one begin line followed by one end "
                + "line (lines \(lines.map(String.init).joined(separator: ", ")))",
            fix: "keep one pair of marker lines around clawnet's block, or remove the markers and that block")
    }

    static func foreignBlock(_ domain: DomainName, line: Int, key: String) -> ZoneErrorText {
        ZoneErrorText(
            "the Corefile already has a server block for \(domain.withoutTrailingDot) on port 53 that clawnet did not write "
                + "(line \(line): `\(SafeText.display(Array(key.utf8)))`); it is left as it is",
            fix: "remove that block or merge it by hand; or, to let clawnet manage it, put the lines "
                + "`\(CorefileEdit.beginMarker(domain))` before it and `\(CorefileEdit.endMarker(domain))` after it")
    }
}

/// What makes `ZoneError` an `ExplainedError` (CommandErrors.swift).
extension ZoneError {
    package var message: String { ZoneErrorText(self).message }
    package var fix: String? { ZoneErrorText(self).fix }
}

extension GatheredGateways.Source {
    /// The flag that asked for the source, as the operator typed it.
    var flag: String {
        switch self {
        case .inventory(let path): "--inventory \(path)"
        case .browse: "--from-browse"
        }
    }
}
