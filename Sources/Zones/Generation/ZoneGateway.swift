import DNSSD

/// One Gateway as a wide-area zone publishes it: an instance under the service type, an SRV
/// to a host label in the zone, the host's addresses, and the TXT in OpenClaw's order.
package struct ZoneGateway: Sendable, Hashable {
    package var instance: InstanceName
    /// A host label inside the zone (lower-case letters, digits, '-').
    package var hostLabel: String
    package var addresses: [IPAddress]
    package var port: Int
    package var txt: TXTRecord

    package init(instance: InstanceName, hostLabel: String, addresses: [IPAddress], port: Int, txt: TXTRecord) {
        self.instance = instance
        self.hostLabel = hostLabel
        self.addresses = addresses
        self.port = port
        self.txt = txt
    }

    /// OpenClaw's label rule: lower-case; runs of characters outside [a-z0-9-] become '-';
    /// dashes trimmed at both ends; at most 63 characters; `fallback` when nothing is left.
    package static func label(_ raw: String, fallback: String) -> String {
        var out = ""
        var lastWasDash = false
        for scalar in raw.trimmingSpaces().lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" {
                out.unicodeScalars.append(scalar)
                lastWasDash = scalar == "-"
            } else if !lastWasDash {
                out.append("-")
                lastWasDash = true
            }
        }
        while out.hasPrefix("-") { out.removeFirst() }
        while out.hasSuffix("-") { out.removeLast() }
        if out.isEmpty { out = fallback }
        return String(out.prefix(63))
    }

    /// TXT in the order OpenClaw's zone writer uses: its keys first, then any others in the
    /// order they came. Values keep their exact bytes.
    package static func openClawOrder(_ attributes: TXTAttributes) -> TXTRecord {
        let order = GatewayInfo.keyOrder.map { $0.lowercased() }
        let known = order.compactMap { key in attributes.ordered.first { $0.key.lowercased() == key } }
        let others = attributes.ordered.filter { !order.contains($0.key.lowercased()) }
        let strings = (known + others).map { attribute -> [UInt8] in
            Array(attribute.key.utf8) + (attribute.value.map { [UInt8(ascii: "=")] + $0 } ?? [])
        }
        return (try? TXTRecord(strings: strings)) ?? .empty
    }

    /// Addresses worth publishing in a wide-area zone: not loopback, link-local or unspecified.
    package static func routable(_ addresses: [IPAddress]) -> [IPAddress] {
        addresses.filter { !$0.isLoopback && !$0.isLinkLocal && !$0.isUnspecified }.map(\.withoutZone)
    }

    /// A Gateway from a browsed beacon (`--inventory`, `--from-browse`): the instance name
    /// kept, so nodes show the same name on the LAN and across the tailnet. nil, with the
    /// reason, for a manual target (no name or TXT to publish) and for a beacon a zone cannot
    /// use (no port, no routable address, or a value no zone can hold).
    package static func from(_ beacon: GatewayBeacon, domain: DomainName) -> (gateway: ZoneGateway?, note: ZoneNote?) {
        guard !beacon.isManualOnly else {
            return (nil, .manualTargetSkipped(name: beacon.instance.displayName))
        }
        guard let port = beacon.port, port > 0 else {
            return (nil, .noPortSkipped(name: beacon.instance.displayName))
        }
        let hostSource = beacon.host?.firstLabel ?? beacon.gateway.lanHost ?? ""
        let addresses = routable(beacon.addresses)
        guard !addresses.isEmpty else {
            return (nil, .noRoutableAddressSkipped(name: beacon.instance.displayName))
        }
        let gateway = ZoneGateway(
            instance: beacon.instance, hostLabel: label(hostSource, fallback: "openclaw"),
            addresses: addresses, port: port, txt: openClawOrder(beacon.attributes))
        // The beacon's TXT is read already; openClawOrder only reorders its attributes.
        if let problem = gateway.structuralProblem(domain: domain, type: .gateway) ?? gateway.txtProblem(beacon.reading) {
            return (nil, .unpublishableSkipped(problem))
        }
        return (gateway, nil)
    }
}
