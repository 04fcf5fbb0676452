/// The beacon object of `clawnet.browse.v1` (docs/schemas). Decoding reads what encoding writes,
/// so `browse --format json` output can be fed to `zone generate --inventory`; the computed
/// fields (`gateway`, `url`, `warnings`, `phones`) are written for readers and recomputed on
/// reading. `id` is the Gateway's (`gatewayID`); each of `sightings` is a beacon object of one
/// path whose `id` is that beacon's own.
///
/// Names and TXT values are exact: `instance` and each `txt` value hold the exact UTF-8 text
/// (control characters included; JSON escapes them). Bytes that are not UTF-8 cannot be a
/// JSON string, so such a name also travels as `instancePresentation` and such a value in
/// `txtPresentation`, in RFC 1035 presentation form (`\DDD` escapes), which decoding prefers.
extension GatewayBeacon: Codable {
    private enum Key: String, CodingKey {
        case id, instance, instancePresentation, serviceType, domain, sources, interfaces, host, port, addresses, txt
        case txtPresentation, gateway, url, warnings, aliases, resolvers, phones, sightings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(gatewayID, forKey: .id)
        try container.encode(instance.jsonText, forKey: .instance)
        try container.encodeIfPresent(instance.exactPresentation, forKey: .instancePresentation)
        try container.encode(serviceType, forKey: .serviceType)
        try container.encode(domain, forKey: .domain)
        try container.encode(sources.sorted(), forKey: .sources)
        try container.encode(interfaces, forKey: .interfaces)
        try container.encode(host, forKey: .host)
        try container.encode(port, forKey: .port)
        try container.encode(addresses.map(\.description), forKey: .addresses)
        try container.encode(TXTJSON(attributes), forKey: .txt)
        let notUTF8 = attributes.ordered.compactMap { attribute -> (String, String)? in
            guard let value = attribute.value, SafeText.utf8(value) == nil else { return nil }
            return (attribute.key, Presentation.escapeCharacterString(value))
        }
        if !notUTF8.isEmpty { try container.encode(Dictionary(notUTF8) { first, _ in first }, forKey: .txtPresentation) }
        try container.encode(GatewayJSON(gateway), forKey: .gateway)
        let url = url
        try container.encode(url, forKey: .url)
        try container.encode(warnings(url: url), forKey: .warnings)
        if !aliases.isEmpty { try container.encode(aliases, forKey: .aliases) }
        if !resolvers.isEmpty { try container.encode(resolvers, forKey: .resolvers) }
        if !isManualOnly { try container.encode(PhonesJSON(phones), forKey: .phones) }
        if !sightings.isEmpty { try container.encode(sightings, forKey: .sightings) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        do {
            if let presentation = try container.decodeIfPresent(String.self, forKey: .instancePresentation) {
                instance = try InstanceName(presentation: presentation)
            } else {
                instance = try InstanceName(decoded: try container.decode(String.self, forKey: .instance))
            }
        } catch let error as DNSSDError {
            throw DecodingError.dataCorruptedError(forKey: .instance, in: container, debugDescription: error.message)
        }
        serviceType = try container.decodeIfPresent(ServiceType.self, forKey: .serviceType) ?? .gateway
        domain = try container.decodeIfPresent(DomainName.self, forKey: .domain)
        sources = Set(try container.decodeIfPresent([BeaconSource].self, forKey: .sources) ?? [.unicast])
        interfaces = try container.decodeIfPresent([String].self, forKey: .interfaces) ?? []
        host = try container.decodeIfPresent(BeaconHost.self, forKey: .host)
        // Read as a number first: the decoder refuses 1.5 for an Int without saying where.
        if let number = try container.decodeIfPresent(Double.self, forKey: .port) {
            guard number.rounded() == number, (0...65_535).contains(number) else {
                let shown = number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
                throw DecodingError.dataCorruptedError(
                    forKey: .port, in: container, debugDescription: "\(shown) is not a port (a whole number, 0-65535)")
            }
            port = Int(number)
        } else {
            port = nil
        }
        var addresses: [IPAddress] = []
        for text in try container.decodeIfPresent([String].self, forKey: .addresses) ?? [] {
            guard let address = IPAddress(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .addresses, in: container, debugDescription: "'\(text)' is not an IP address")
            }
            addresses.append(address)
        }
        self.addresses = addresses
        let txtJSON = try container.decodeIfPresent(TXTJSON.self, forKey: .txt) ?? TXTJSON(entries: [])
        let exactValues = try container.decodeIfPresent([String: String].self, forKey: .txtPresentation) ?? [:]
        do {
            txt = try TXTRecord(strings: try txtJSON.strings(exactValues: exactValues))
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .txt, in: container, debugDescription: error.message)
        }
        reading = TXTReading(txt)
        requestedTLS = nil
        aliases = try container.decodeIfPresent([BeaconAlias].self, forKey: .aliases) ?? []
        resolvers = try container.decodeIfPresent([String].self, forKey: .resolvers) ?? []
        discoveryWarnings = []
        sightings = try container.decodeIfPresent([GatewayBeacon].self, forKey: .sightings) ?? []
        // A merged Gateway's id may be another path's beacon id: kept, so that it is read back as written.
        let written = try container.decodeIfPresent(String.self, forKey: .id)
        assignedID = written == id.description ? nil : written
    }
}

/// TXT attributes as a JSON object: `"key": "value"`, a boolean attribute as `true`.
/// Decoding puts OpenClaw's keys first, in its order, then the rest sorted.
struct TXTJSON: Codable {
    struct Entry {
        let key: String
        let value: String?
    }

    let entries: [Entry]

    init(entries: [Entry]) {
        self.entries = entries
    }

    init(_ attributes: TXTAttributes) {
        entries = attributes.ordered.map { Entry(key: $0.key, value: $0.value.map(Self.text)) }
    }

    /// The exact text of bytes that are UTF-8; otherwise the text with U+FFFD for what is not
    /// (readable, and never mistaken for the exact value, which travels in presentation form).
    static func text(_ bytes: [UInt8]) -> String {
        SafeText.utf8(bytes) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// The TXT strings, `key=value` each; a value in `exactValues` (presentation form, from
    /// `txtPresentation`) wins over the one in the object.
    func strings(exactValues: [String: String]) throws(DNSSDError) -> [[UInt8]] {
        var strings: [[UInt8]] = []
        for entry in entries {
            try TXTRecord.validate(key: entry.key)
            var value = entry.value.map { Array($0.utf8) }
            if let exact = exactValues[entry.key] { value = try Presentation.unescapeCharacterString(exact) }
            strings.append(Array(entry.key.utf8) + (value.map { [UInt8(ascii: "=")] + $0 } ?? []))
        }
        return strings
    }

    /// OpenClaw's keys, lower-cased, in its order.
    private static let order = GatewayInfo.keyOrder.map { $0.lowercased() }

    /// Where a key goes: its place in OpenClaw's order, after all of them when it is not one.
    private static func place(_ key: String) -> Int {
        let lowered = key.lowercased()
        return order.firstIndex(of: lowered) ?? order.count
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for entry in entries {
            if let value = entry.value {
                try container.encode(value, forKey: AnyKey(stringValue: entry.key))
            } else {
                try container.encode(true, forKey: AnyKey(stringValue: entry.key))
            }
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        // Each key's place is found once, not at every comparison of the sort.
        let keys = container.allKeys.map { (place: Self.place($0.stringValue), key: $0) }.sorted { lhs, rhs in
            lhs.place != rhs.place ? lhs.place < rhs.place : lhs.key.stringValue < rhs.key.stringValue
        }.map(\.key)
        entries = try keys.map { key in
            if let text = try? container.decode(String.self, forKey: key) { return Entry(key: key.stringValue, value: text) }
            if let number = try? container.decode(Int.self, forKey: key) { return Entry(key: key.stringValue, value: String(number)) }
            if try container.decode(Bool.self, forKey: key) { return Entry(key: key.stringValue, value: nil) }
            return Entry(key: key.stringValue, value: "0")
        }
    }
}

/// The `gateway` object: every field present, null when unknown.
struct GatewayJSON: Encodable {
    let info: GatewayInfo

    init(_ info: GatewayInfo) {
        self.info = info
    }

    private enum Key: String, CodingKey {
        case role, displayName, lanHost, gatewayPort, tls, tlsSha256, canvasPort, sshPort
        case tailnetDns, cliPath, transport, directReachable
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(info.role, forKey: .role)
        try container.encode(info.displayName, forKey: .displayName)
        try container.encode(info.lanHost, forKey: .lanHost)
        try container.encode(info.gatewayPort, forKey: .gatewayPort)
        try container.encode(info.tls, forKey: .tls)
        try container.encode(info.tlsSha256?.hex, forKey: .tlsSha256)
        try container.encode(info.canvasPort, forKey: .canvasPort)
        try container.encode(info.sshPort, forKey: .sshPort)
        try container.encode(info.tailnetDns, forKey: .tailnetDns)
        try container.encode(info.cliPath, forKey: .cliPath)
        try container.encode(info.transport, forKey: .transport)
        try container.encode(info.directReachable, forKey: .directReachable)
    }
}

/// `phones`: what OpenClaw's Android and iOS nodes would do with the beacon (PhoneVerdicts):
/// `{"android": {"verdict": "plainText", "host": "studio.local"}, "ios": {"verdict": "refuse",
/// "reason": "tlsRequired"}}`.
struct PhonesJSON: Encodable {
    let verdicts: PhoneVerdicts

    init(_ verdicts: PhoneVerdicts) {
        self.verdicts = verdicts
    }

    private enum Key: String, CodingKey { case android, ios }
    private enum VerdictKey: String, CodingKey { case verdict, host, reason }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, verdict) in [(Key.android, verdicts.android), (.ios, verdicts.ios)] {
            var phone = container.nestedContainer(keyedBy: VerdictKey.self, forKey: key)
            try phone.encode(verdict.name, forKey: .verdict)
            try phone.encode(verdicts.host, forKey: .host)
            if case .refused(let refusal) = verdict { try phone.encode(refusal.name, forKey: .reason) }
        }
    }
}
