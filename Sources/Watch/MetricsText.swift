import DNSSD
import Doctor
import FoundationEssentials

/// The Prometheus text exposition format (version 0.0.4) of a `WatchSnapshot`. Label values
/// come from the network (instance names, hosts), so each is cut to `labelLimit` bytes and
/// escaped as the format says, and at most `gatewayLimit` Gateways are exported (the rest are
/// counted in clawnet_watch_gateways_dropped).
package enum MetricsText {
    /// The Content-Type Prometheus expects for this format.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"
    package static let defaultGatewayLimit = 2_000
    /// Long enough for any URL a Gateway's beacon forms (a host name is at most 253 bytes).
    static let labelLimit = 300

    package static func render(_ snapshot: WatchSnapshot, gatewayLimit: Int = defaultGatewayLimit) -> String {
        let all = snapshot.sorted
        let gateways = Array(all.prefix(gatewayLimit))
        var text = ""
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: [(String, String)], value: String)]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for sample in samples { text += "\(name)\(labelSet(sample.labels)) \(sample.value)\n" }
        }
        family(
            "clawnet_gateway_up", "gauge", "1 when the last probe passed every layer doctor checks, 0 when one failed.",
            gateways.compactMap { gateway in
                gateway.health == .unknown ? nil : (labels(gateway), gateway.health == .up ? "1" : "0")
            })
        family(
            "clawnet_gateway_probe_duration_seconds", "gauge", "How long each check of the last probe took, by doctor's check id.",
            gateways.flatMap { gateway in
                (gateway.verdict?.durations ?? [:]).sorted { $0.key < $1.key }.map { check, duration in
                    (labels(gateway) + [("check", check.rawValue)], seconds(duration))
                }
            })
        family(
            "clawnet_gateway_certificate_not_after_seconds", "gauge", "The notAfter of the certificate the Gateway served, as Unix time.",
            gateways.compactMap { gateway in
                gateway.verdict?.notAfter.map { (labels(gateway), number($0.timeIntervalSince1970)) }
            })
        family(
            "clawnet_gateway_last_change_seconds", "gauge", "When the Gateway last went up or down, as Unix time.",
            gateways.compactMap { gateway in gateway.lastChange.map { (labels(gateway), number($0.timeIntervalSince1970)) } })
        family(
            "clawnet_gateway_protocol", "gauge", "The Gateway protocol version its last answer to connect showed.",
            gateways.compactMap { gateway in gateway.verdict?.protocolVersion.map { (labels(gateway), String($0)) } })
        family(
            "clawnet_source_instances", "gauge", "Gateways each discovery source (mdns, unicast, manual, config) lists now.",
            snapshot.sourceInstances.sorted { $0.key < $1.key }.map { ([("source", $0.key.rawValue)], String($0.value)) })
        family(
            "clawnet_diagnoses_total", "counter", "Diagnoses doctor's rules gave in probes, by doctor's diagnosis id.",
            snapshot.diagnoses.sorted { $0.key.rawValue < $1.key.rawValue }.map { ([("diagnosis", $0.key.rawValue)], String($0.value)) })
        family("clawnet_probes_total", "counter", "Probes finished.", [([], String(snapshot.probes))])
        family(
            "clawnet_watch_gateways_dropped", "gauge", "Gateways watched but not exported (over the export limit).",
            [([], String(all.count - gateways.count))])
        return text
    }

    static func labels(_ gateway: WatchSnapshot.Gateway) -> [(String, String)] {
        [("gateway", gateway.watched.id), ("instance_name", gateway.watched.instance), ("url", gateway.watched.label)]
    }

    static func labelSet(_ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return "" }
        return "{" + labels.map { "\($0.0)=\"\(escaped(bounded($0.1)))\"" }.joined(separator: ",") + "}"
    }

    /// Backslash, double quote and line feed escaped, as the exposition format requires.
    package static func escaped(_ value: String) -> String {
        var result = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// At most `labelLimit` bytes of UTF-8, cut between characters.
    static func bounded(_ value: String) -> String {
        guard value.utf8.count > labelLimit else { return value }
        var result = ""
        var bytes = 0
        for scalar in value.unicodeScalars {
            bytes += String(scalar).utf8.count
            guard bytes <= labelLimit else { break }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    static func seconds(_ duration: Duration) -> String {
        number(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
