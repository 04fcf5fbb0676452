import DNSSD
import DNSWire

extension ZoneGateway {
    /// Why this Gateway cannot be written into a zone for `domain` so that every server loads
    /// it and every node can use it; nil when it can. Every value is checked before anything
    /// is written: a Gateway given by the operator that fails is an error, a browsed one
    /// (inventory, `--from-browse`) is skipped with this reason.
    public func problem(domain: DomainName, type: ServiceType = .gateway) -> String? {
        if let problem = structuralProblem(domain: domain, type: type) { return problem }
        // What `zone check` fails in a TXT: a value nodes cannot use, a port that contradicts the SRV.
        let reading = TXTReading(txt)
        if let issue = reading.issues.first(where: { $0.severity == .error }) {
            return "'\(instance.displayName)': \(issue.message)"
        }
        if let advertised = reading.info.gatewayPort, advertised != port {
            return
                "'\(instance.displayName)': TXT gatewayPort \(advertised) differs from SRV port \(port); nodes would not know which to use"
        }
        return nil
    }

    /// The values that decide what the zone text says (port, labels, name lengths, addresses,
    /// sizes): checked before any text is made, so no value can change the zone's structure.
    /// The TXT's meaning is left to `zone check`, which runs on the text.
    func structuralProblem(domain: DomainName, type: ServiceType) -> String? {
        let name = "'\(instance.displayName)'"
        guard (1...65_535).contains(port) else {
            return "\(name) has port \(port); an SRV port is 1 to 65535"
        }
        guard hostLabel.utf8.count <= 63, ZoneGateway.label(hostLabel, fallback: "") == hostLabel else {
            return "\(name) has host label '\(SafeText.display(Array(hostLabel.utf8)))'; a host label is 1 to 63 of a-z, 0-9 and '-'"
        }
        let domainLabels = domain.labels.map { Array($0.utf8) }
        guard (try? DNSName(labels: [instance.bytes] + type.labels.map { Array($0.utf8) } + domainLabels)) != nil else {
            return "\(name).\(type.name).\(domain.name) is longer than a DNS name may be (255 bytes)"
        }
        guard let target = try? DNSName(labels: [Array(hostLabel.utf8)] + domainLabels) else {
            return "\(name): its SRV target \(hostLabel).\(domain.name) is longer than a DNS name may be (255 bytes)"
        }
        guard !addresses.isEmpty else {
            return "\(name) has no address: its SRV target \(target) would have no A or AAAA record"
        }
        let owner = (try? DNSName(instance: instance, type: type, domain: domain)) ?? target
        let answer = ZoneWriter.answerBytes(owner: owner, rdata: txt.wire.count)
        guard answer <= ZoneWriter.maxMessageBytes else {
            return "\(name) has a TXT record of \(txt.wire.count) bytes: its answer (\(answer) bytes) does not fit in one DNS message "
                + "(\(ZoneWriter.maxMessageBytes)); BIND and Knot refuse such a zone"
        }
        return nil
    }
}
