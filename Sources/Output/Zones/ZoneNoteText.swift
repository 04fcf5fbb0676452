import DNSSD
import Probes
import Zones

/// The words of a note on a zone being made (`ZoneNote`): the one place one becomes English.
enum ZoneNoteText {
    static func text(_ note: ZoneNote) -> String {
        switch note {
        case .certificateUnreadable(let path):
            "TLS is on but \(path) has no readable certificate: gatewayTlsSha256 is left out"
        case .sourceFailed(let source, let failure):
            "\(source.flag): \(Self.failure(failure))"
        case .outsideZones(let domain, let count, let inventory):
            "\(Plural.counted(count, "Gateway")) of \(domain?.name ?? "no domain") in --inventory \(inventory) "
                + "\(count == 1 ? "is" : "are") in no zone of --domain: with several --domain, a Gateway goes to the zone its beacon names"
        case .manualTargetSkipped(let name):
            "skipped manual target \(name): it has no instance name or TXT to publish"
        case .noPortSkipped(let name):
            "skipped '\(name)': it has no usable SRV port"
        case .noRoutableAddressSkipped(let name):
            "skipped '\(name)': it has no routable address (only link-local or loopback), so its host would have no A/AAAA record"
        case .unpublishableSkipped(let problem):
            "skipped \(ZoneGatewayProblemText.text(problem))"
        case .noTailnetAddressSkipped(let name, let lan):
            "skipped '\(name)': it has no tailnet address, only \(list(lan)) (--tailnet-only)"
        case .lanAddressesLeftOut(let name, let lan):
            "'\(name)': left out its non-tailnet address(es) \(list(lan)) (--tailnet-only)"
        case .lanAddressesPublished(let name, let lan):
            "'\(name)' is published with non-tailnet address(es) \(list(lan)): nodes on the tailnet cannot reach them "
                + "(--tailnet-only publishes only 100.64.0.0/10 and fd7a:115c:a1e0::/48)"
        case .noTimeToCheck(let count):
            "no time was left to check whether the \(Plural.counted(count, "Gateway")) answer (raise --timeout)"
        case .didNotAnswer(let name, let port, let attempts):
            "'\(name)' did not answer on port \(port) (\(attempts.map(attempt).joined(separator: "; "))); it is published anyway: "
                + "is it running, and listening on that address?"
        case .instanceRenamed(let name, let published):
            "two Gateways are named '\(name)'; the second is published as '\(published)'"
        case .hostRenamed(let host, let gateway, let published):
            "host '\(host)' of '\(gateway)' has other addresses than another host of that name; published as '\(published)'"
        case .bindSlabTooLarge(let instances, let bytes):
            "\(instances) instances make a PTR RRset of \(bytes) bytes uncompressed: BIND refuses to load more than "
                + "\(ZoneWriter.maxMessageBytes) (\"ran out of space\"); CoreDNS serves it, or split the Gateways across more domains"
        case .bindRecordsPerType(let instances):
            "\(instances) instances: BIND 9.18.28+ refuses more than \(ZoneWriter.bindRecordsPerType) records of one type at one "
                + "name unless `max-records-per-type 0;` is set in its options (CoreDNS has no such limit)"
        }
    }

    /// What went wrong while a listing source was read.
    static func failure(_ failure: SourceFailure) -> String {
        switch failure {
        case .browse(let issue):
            return "browse: \(DiscoveryIssueText(issue).message)"
        case .browseTimedOut(let timeout):
            return "browse: stopped at the \(timeout.argumentText) timeout before every path reported all it knows"
        case .saved(let source, let message):
            let text = [source, message].compactMap { $0 }.joined(separator: ": ")
            return "the browse that wrote it reported \(SafeText.display(Array(text.utf8)))"
        }
    }

    private static func list(_ addresses: [IPAddress]) -> String {
        addresses.map(\.description).joined(separator: ", ")
    }

    /// One TCP attempt of a Gateway that did not answer: its address and what came back.
    private static func attempt(_ attempt: TCPAttempt) -> String {
        let outcome =
            switch attempt.outcome {
            case .connected: "connected"
            case .refused: "refused"
            case .timedOut: "no answer"
            case .reset: "reset at once"
            case .unreachable(let why), .localShortage(let why): why
            case .failed(let why): SafeText.display(Array(why.utf8))
            }
        return "\(attempt.address): \(outcome)"
    }
}

extension Transcript {
    /// Notes on a zone, each as `note: NOTE`.
    package mutating func notes(_ notes: [ZoneNote]) {
        self.notes(notes.map(ZoneNoteText.text))
    }
}

extension Terminal {
    /// Notes on a zone on stderr, each as `note: NOTE`.
    package func notes(_ notes: [ZoneNote]) {
        self.notes(notes.map(ZoneNoteText.text))
    }
}
