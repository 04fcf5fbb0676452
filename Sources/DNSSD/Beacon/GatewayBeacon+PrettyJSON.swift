/// The beacon object of `clawnet.browse.v1` written straight into a `PrettyJSON`: the same
/// bytes as `encode(to:)` through `JSONOutput.pretty` (a test compares the two), without
/// Codable's containers, which cost browse of a large domain a third of its time. Keys in
/// sorted order.
extension GatewayBeacon {
    package func write(to json: inout PrettyJSON) {
        json.object { json in
            json.key("addresses")
            json.strings(addresses.map(\.description))
            if !aliases.isEmpty {
                json.key("aliases")
                json.array { json in
                    for alias in aliases { alias.write(to: &json) }
                }
            }
            json.key("domain")
            json.string(domain?.name)
            json.key("gateway")
            gateway.write(to: &json)
            json.key("host")
            json.string(host?.text)
            json.key("id")
            json.string(gatewayID)
            json.key("instance")
            json.string(instance.jsonText)
            if let presentation = instance.exactPresentation {
                json.key("instancePresentation")
                json.string(presentation)
            }
            json.key("interfaces")
            json.strings(interfaces)
            writeRest(to: &json)
        }
    }

    /// The members from `phones` on.
    private func writeRest(to json: inout PrettyJSON) {
        if !isManualOnly {
            json.key("phones")
            phones.write(to: &json)
        }
        json.key("port")
        json.int(port)
        if !resolvers.isEmpty {
            json.key("resolvers")
            json.strings(resolvers)
        }
        json.key("serviceType")
        json.string(serviceType.name)
        if !sightings.isEmpty {
            json.key("sightings")
            json.array { json in
                for sighting in sightings { sighting.write(to: &json) }
            }
        }
        json.key("sources")
        json.strings(sources.sorted().map(\.rawValue))
        writeTXT(to: &json)
        let url = url
        json.key("url")
        json.string(url)
        json.key("warnings")
        json.strings(warnings(url: url))
    }

    /// `txt`, and `txtPresentation` for the values that are not UTF-8 (`TXTJSON`).
    private func writeTXT(to json: inout PrettyJSON) {
        let entries = TXTJSON(attributes).entries
        json.key("txt")
        json.object { json in
            for entry in Self.sorted(entries, by: \.key) {
                json.key(entry.key)
                if let value = entry.value { json.string(value) } else { json.bool(true) }
            }
        }
        var notUTF8: [(key: String, value: String)] = []
        for attribute in attributes.ordered where !notUTF8.contains(where: { $0.key == attribute.key }) {
            guard let value = attribute.value, SafeText.utf8(value) == nil else { continue }
            notUTF8.append((attribute.key, Presentation.escapeCharacterString(value)))
        }
        guard !notUTF8.isEmpty else { return }
        json.key("txtPresentation")
        json.object { json in
            for (key, value) in Self.sorted(notUTF8, by: \.key) {
                json.key(key)
                json.string(value)
            }
        }
    }

    /// In the order JSONEncoder's `.sortedKeys` puts them (by UTF-8 bytes); the first of equal keys.
    private static func sorted<Element>(_ elements: [Element], by key: (Element) -> String) -> [Element] {
        var seen = Set<String>()
        return elements.filter { seen.insert(key($0)).inserted }.sorted { key($0).utf8.lexicographicallyPrecedes(key($1).utf8) }
    }
}

extension BeaconAlias {
    /// As its synthesized `Encodable` writes it: `instancePresentation` only when there is one.
    func write(to json: inout PrettyJSON) {
        json.object { json in
            if let domain {
                json.key("domain")
                json.string(domain)
            }
            json.key("instance")
            json.string(instance)
            if let instancePresentation {
                json.key("instancePresentation")
                json.string(instancePresentation)
            }
            json.key("source")
            json.string(source.rawValue)
        }
    }
}

extension GatewayInfo {
    /// The `gateway` object (`GatewayJSON`): every field present, null when unknown.
    func write(to json: inout PrettyJSON) {
        json.object { json in
            json.key("canvasPort")
            json.int(canvasPort)
            json.key("cliPath")
            json.string(cliPath)
            json.key("directReachable")
            json.bool(directReachable)
            json.key("displayName")
            json.string(displayName)
            json.key("gatewayPort")
            json.int(gatewayPort)
            json.key("lanHost")
            json.string(lanHost)
            json.key("role")
            json.string(role)
            json.key("sshPort")
            json.int(sshPort)
            json.key("tailnetDns")
            json.string(tailnetDns)
            json.key("tls")
            json.bool(tls)
            json.key("tlsSha256")
            json.string(tlsSha256?.hex)
            json.key("transport")
            json.string(transport)
        }
    }
}

extension PhoneVerdicts {
    /// `phones` (`PhonesJSON`).
    func write(to json: inout PrettyJSON) {
        json.object { json in
            for (key, verdict) in [("android", android), ("ios", ios)] {
                json.key(key)
                json.object { json in
                    json.key("host")
                    json.string(host)
                    if case .refused(let refusal) = verdict {
                        json.key("reason")
                        json.string(refusal.name)
                    }
                    json.key("verdict")
                    json.string(verdict.name)
                }
            }
        }
    }
}
