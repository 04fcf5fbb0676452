/// The beacon object of `clawnet.browse.v1` (DESIGN.md). Decoding reads what encoding writes,
/// so `browse --format json` output can be fed to `zone generate --inventory`; the computed
/// fields (`id`, `gateway`, `url`, `warnings`) are written for readers and recomputed on reading.
extension GatewayBeacon: Codable {
    private enum Key: String, CodingKey {
        case id, instance, serviceType, domain, sources, interfaces, host, port, addresses, txt
        case gateway, url, warnings, aliases, resolvers
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: .id)
        try container.encode(instance.displayName, forKey: .instance)
        try container.encode(serviceType, forKey: .serviceType)
        try container.encode(domain, forKey: .domain)
        try container.encode(sources.sorted(), forKey: .sources)
        try container.encode(interfaces, forKey: .interfaces)
        try container.encode(host, forKey: .host)
        try container.encode(port, forKey: .port)
        try container.encode(addresses.map(\.description), forKey: .addresses)
        try container.encode(TXTJSON(attributes), forKey: .txt)
        try container.encode(GatewayJSON(gateway), forKey: .gateway)
        try container.encode(url, forKey: .url)
        try container.encode(warnings, forKey: .warnings)
        if !aliases.isEmpty { try container.encode(aliases, forKey: .aliases) }
        if !resolvers.isEmpty { try container.encode(resolvers, forKey: .resolvers) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let instanceText = try container.decode(String.self, forKey: .instance)
        do {
            instance = try InstanceName(decoded: instanceText)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .instance, in: container, debugDescription: error.message)
        }
        serviceType = try container.decodeIfPresent(ServiceType.self, forKey: .serviceType) ?? .gateway
        domain = try container.decodeIfPresent(DomainName.self, forKey: .domain)
        sources = Set(try container.decodeIfPresent([BeaconSource].self, forKey: .sources) ?? [.unicast])
        interfaces = try container.decodeIfPresent([String].self, forKey: .interfaces) ?? []
        host = try container.decodeIfPresent(String.self, forKey: .host)
        port = try container.decodeIfPresent(Int.self, forKey: .port)
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
        do {
            txt = try TXTRecord(pairs: txtJSON.entries.map { (key: $0.key, value: $0.value) })
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .txt, in: container, debugDescription: error.message)
        }
        reading = TXTReading(txt)
        requestedTLS = nil
        aliases = try container.decodeIfPresent([BeaconAlias].self, forKey: .aliases) ?? []
        resolvers = try container.decodeIfPresent([String].self, forKey: .resolvers) ?? []
        discoveryWarnings = []
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
        entries = attributes.ordered.map { Entry(key: $0.key, value: $0.value.map { SafeText.utf8($0) ?? SafeText.display($0) }) }
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
        let order = GatewayInfo.keyOrder.map { $0.lowercased() }
        let keys = container.allKeys.sorted { lhs, rhs in
            let left = order.firstIndex(of: lhs.stringValue.lowercased()) ?? order.count
            let right = order.firstIndex(of: rhs.stringValue.lowercased()) ?? order.count
            return left != right ? left < right : lhs.stringValue < rhs.stringValue
        }
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
