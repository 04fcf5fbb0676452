import DNSSD

extension ZoneGateway {
    /// Why a Gateway cannot be written into a zone: what is wrong, with the values Output's
    /// words need. `gateway` is the instance's display name.
    package struct Problem: Sendable, Hashable {
        package enum Kind: Sendable, Hashable {
            /// An SRV port is 1 to 65535.
            case port(Int)
            /// A host label is 1 to 63 of a-z, 0-9 and '-'.
            case hostLabel(String)
            /// `<instance>.<type>.<domain>` is past 255 bytes.
            case instanceNameTooLong(type: ServiceType, domain: DomainName)
            /// The SRV target `<host>.<domain>` is past 255 bytes.
            case srvTargetTooLong(host: String, domain: DomainName)
            /// No address: the SRV target would have no A or AAAA record.
            case noAddress(host: String, domain: DomainName)
            /// A TXT of `rdata` bytes whose answer (`answer` bytes) does not fit in one DNS message.
            case txtTooLarge(rdata: Int, answer: Int)
            /// A TXT value nodes cannot use (the first error TXTReading finds).
            case txtValue(TXTIssue)
            /// TXT gatewayPort differs from the SRV's port.
            case txtPortMismatch(advertised: Int, port: Int)
        }

        package let gateway: String
        package let kind: Kind

        package init(gateway: String, _ kind: Kind) {
            self.gateway = gateway
            self.kind = kind
        }
    }

    /// Why this Gateway cannot be written into a zone for `domain` so that every server loads
    /// it and every node can use it; nil when it can. Every value is checked before anything
    /// is written: a Gateway given by the operator that fails is an error, a browsed one
    /// (inventory, `--from-browse`) is skipped with this reason.
    package func problem(domain: DomainName, type: ServiceType = .gateway) -> Problem? {
        structuralProblem(domain: domain, type: type) ?? txtProblem(TXTReading(txt))
    }

    /// What `zone check` fails in a TXT: a value nodes cannot use, a port that contradicts the
    /// SRV. `reading` is this Gateway's TXT read (a browsed beacon has it read already).
    func txtProblem(_ reading: TXTReading) -> Problem? {
        if let issue = reading.issues.first(where: { $0.severity == .error }) {
            return problem(.txtValue(issue))
        }
        if let advertised = reading.info.gatewayPort, advertised != port {
            return problem(.txtPortMismatch(advertised: advertised, port: port))
        }
        return nil
    }

    /// The values that decide what the zone text says (port, labels, name lengths, addresses,
    /// sizes), so that no value can change the zone's structure.
    func structuralProblem(domain: DomainName, type: ServiceType) -> Problem? {
        guard (1...65_535).contains(port) else { return problem(.port(port)) }
        guard ZoneGateway.isHostLabel(hostLabel) else { return problem(.hostLabel(hostLabel)) }
        // Wire lengths, counted from the text (`a.b.` is 4 bytes on the wire with its root).
        let domainWire = domain.name.utf8.count + 1
        let ownerWire = 1 + instance.bytes.count + type.name.utf8.count + 1 + domainWire
        guard ownerWire <= 255 else { return problem(.instanceNameTooLong(type: type, domain: domain)) }
        guard 1 + hostLabel.utf8.count + domainWire <= 255 else { return problem(.srvTargetTooLong(host: hostLabel, domain: domain)) }
        guard !addresses.isEmpty else { return problem(.noAddress(host: hostLabel, domain: domain)) }
        let rdata = txt.wire.count
        let answer = ZoneWriter.answerBytes(ownerWire: ownerWire, rdata: rdata)
        guard answer <= ZoneWriter.maxMessageBytes else { return problem(.txtTooLarge(rdata: rdata, answer: answer)) }
        return nil
    }

    private func problem(_ kind: Problem.Kind) -> Problem {
        Problem(gateway: instance.displayName, kind)
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
