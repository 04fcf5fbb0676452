import DNSSD

extension ZoneGateway {
    /// Why this Gateway cannot be written into a zone for `domain` so that every server loads
    /// it and every node can use it; nil when it can. Every value is checked before anything
    /// is written: a Gateway given by the operator that fails is an error, a browsed one
    /// (inventory, `--from-browse`) is skipped with this reason.
    public func problem(domain: DomainName, type: ServiceType = .gateway) -> String? {
        structuralProblem(domain: domain, type: type) ?? txtProblem(TXTReading(txt))
    }

    /// What `zone check` fails in a TXT: a value nodes cannot use, a port that contradicts the
    /// SRV. `reading` is this Gateway's TXT read (a browsed beacon has it read already).
    func txtProblem(_ reading: TXTReading) -> String? {
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
    /// sizes), so that no value can change the zone's structure.
    func structuralProblem(domain: DomainName, type: ServiceType) -> String? {
        var name: String { "'\(instance.displayName)'" }
        guard (1...65_535).contains(port) else {
            return "\(name) has port \(port); an SRV port is 1 to 65535"
        }
        guard ZoneGateway.isHostLabel(hostLabel) else {
            return "\(name) has host label '\(SafeText.display(Array(hostLabel.utf8)))'; a host label is 1 to 63 of a-z, 0-9 and '-'"
        }
        // Wire lengths, counted from the text (`a.b.` is 4 bytes on the wire with its root).
        let domainWire = domain.name.utf8.count + 1
        let ownerWire = 1 + instance.bytes.count + type.name.utf8.count + 1 + domainWire
        guard ownerWire <= 255 else {
            return "\(name).\(type.name).\(domain.name) is longer than a DNS name may be (255 bytes)"
        }
        guard 1 + hostLabel.utf8.count + domainWire <= 255 else {
            return "\(name): its SRV target \(hostLabel).\(domain.name) is longer than a DNS name may be (255 bytes)"
        }
        guard !addresses.isEmpty else {
            return "\(name) has no address: its SRV target \(hostLabel).\(domain.name) would have no A or AAAA record"
        }
        let rdata = txt.wire.count
        let answer = ZoneWriter.answerBytes(ownerWire: ownerWire, rdata: rdata)
        guard answer <= ZoneWriter.maxMessageBytes else {
            return "\(name) has a TXT record of \(rdata) bytes: its answer (\(answer) bytes) does not fit in one DNS message "
                + "(\(ZoneWriter.maxMessageBytes)); BIND and Knot refuse such a zone"
        }
        return nil
    }

    /// What OpenClaw's label rule makes: 1 to 63 of a-z, 0-9 and '-', not starting or ending with '-'.
    static func isHostLabel(_ label: String) -> Bool {
        let bytes = label.utf8
        guard let first = bytes.first, let last = bytes.last, bytes.count <= 63, first != UInt8(ascii: "-"), last != UInt8(ascii: "-")
        else { return false }
        return bytes.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: "-")
        }
    }
}
