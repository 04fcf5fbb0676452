import DNSSD

/// `--gateway` on the command line: comma-separated KEY=VALUE pairs.
///
///     host=studio,ip=100.101.102.103,ip=fd7a:115c:a1e0::1,port=18789,tls=<sha256>
///     name=Studio (OpenClaw),display=Studio,tailnet=studio.tail1234.ts.net,ssh=22,cli=/usr/local/bin/openclaw
///
/// Keys: `host` (required: the host label, or a host name whose first label is used),
/// `ip` (required, repeatable, IPv4 or IPv6: the SRV target's A and AAAA records), `port` (default 18789), `name` (the instance name;
/// default `<host>-gateway` as OpenClaw writes it), `display` (displayName; default the
/// name without " (OpenClaw)", or the host when there is no name), `tls` (a SHA-256 fingerprint, or `yes` without one),
/// `tailnet` (tailnetDns), `ssh` (sshPort), `cli` (cliPath), `direct` (`1`:
/// gatewayDirectReachable). A `\` escapes the next character (`\,` for a comma in a name).
package enum GatewaySpec {
    /// In words that wrap: a run of KEY=VALUE pairs without spaces cannot, in 80 columns.
    package static let help = """
        KEY=VALUE pairs joined by commas: host=LABEL and ip=ADDR (both required; ip repeatable), \
        port=N, name=INSTANCE, display=TEXT, tls=SHA256|yes, tailnet=NAME, ssh=N, cli=PATH, \
        direct=1 (\\, escapes a comma)
        """

    package static func parse(_ text: String) throws(DNSSDError) -> ZoneGateway {
        var values: [(String, String)] = []
        for field in try split(text) {
            guard let equals = field.firstIndex(of: "=") else {
                throw DNSSDError(.gatewaySpec, "'\(field)' in --gateway needs KEY=VALUE")
            }
            values.append((field[..<equals].lowercased().trimmingSpaces(), String(field[field.index(after: equals)...])))
        }
        func one(_ key: String) -> String? { values.last { $0.0 == key }?.1 }
        let known: Set = ["host", "ip", "port", "name", "display", "tls", "tailnet", "ssh", "cli", "direct"]
        if let unknown = values.first(where: { !known.contains($0.0) }) {
            throw DNSSDError(.gatewaySpec, "unknown key '\(unknown.0)' in --gateway (keys: \(known.sorted().joined(separator: ", ")))")
        }
        guard let host = one("host"), !host.trimmingSpaces().isEmpty else {
            throw DNSSDError(.gatewaySpec, "--gateway needs host=LABEL")
        }
        let hostLabel = ZoneGateway.label(String(host.split(separator: ".").first ?? ""), fallback: "openclaw")
        let addresses = try addresses(values.filter { $0.0 == "ip" }.map(\.1), host: host)
        let port = try number(one("port"), "port") ?? Endpoint.defaultGatewayPort
        let instance: InstanceName
        if let name = one("name") {
            instance = try InstanceName(decoded: name)
        } else {
            instance = try InstanceName(decoded: ZoneGateway.label("\(hostLabel)-gateway", fallback: "openclaw-gw"))
        }
        // As OpenClaw: the display name falls back to the host name.
        let exactName = SafeText.utf8(instance.bytes) ?? instance.displayName
        let display = one("display") ?? (one("name") == nil ? hostLabel : GatewayTXT.displayName(ofInstance: exactName))

        var txt = GatewayTXT(displayName: display, gatewayPort: port)
        if let tls = one("tls") {
            txt.tls = true
            if !["yes", "1", "true", "on"].contains(tls.lowercased()) {
                guard let fingerprint = TLSFingerprint(normalizing: tls) else {
                    throw DNSSDError(.gatewaySpec, "tls=\(tls) is neither a SHA-256 fingerprint (64 hex digits) nor 'yes'")
                }
                txt.fingerprint = fingerprint
            }
        }
        txt.directReachable = one("direct").map { ["1", "yes", "true"].contains($0.lowercased()) } ?? false
        txt.tailnetDns = one("tailnet").map { $0.trimmingSpaces() }.flatMap { $0.isEmpty ? nil : $0 }
        txt.sshPort = try number(one("ssh"), "ssh")
        txt.cliPath = one("cli").map { $0.trimmingSpaces() }.flatMap { $0.isEmpty ? nil : $0 }
        return ZoneGateway(instance: instance, hostLabel: hostLabel, addresses: addresses, port: port, txt: try txt.record(.wideAreaZone))
    }

    /// The `ip=` values: at least one, each an IP address without a zone id.
    private static func addresses(_ values: [String], host: String) throws(DNSSDError) -> [IPAddress] {
        var addresses: [IPAddress] = []
        for value in values {
            let shown = SafeText.display(Array(value.utf8))
            if let percent = value.firstIndex(of: "%") {
                // A zone id names an interface of one machine: never part of a zone file.
                throw DNSSDError(
                    .gatewaySpec,
                    "ip=\(shown) has a zone id (\(SafeText.display(Array(value[percent...].utf8)))), which has no place in a zone file: "
                        + "give the address without it")
            }
            guard let address = IPAddress(value.trimmingSpaces()) else {
                throw DNSSDError(.gatewaySpec, "ip=\(shown) is not an IP address")
            }
            addresses.append(address)
        }
        // Only the user knows the address: a usage error now, not a zone refused later.
        guard !addresses.isEmpty else {
            throw DNSSDError(
                .gatewaySpec, "--gateway host=\(SafeText.display(Array(host.utf8))) needs ip=ADDR (the address its SRV target names)")
        }
        return addresses
    }

    private static func number(_ text: String?, _ key: String) throws(DNSSDError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text.trimmingSpaces()), (1...65535).contains(value) else {
            throw DNSSDError(.gatewaySpec, "\(key)=\(text) is not a port (1-65535)")
        }
        return value
    }

    /// Split on commas that are not escaped with a backslash.
    private static func split(_ text: String) throws(DNSSDError) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaping = false
        for character in text {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !escaping else { throw DNSSDError(.gatewaySpec, "--gateway ends with a lone '\\'") }
        fields.append(current)
        return fields.filter { !$0.trimmingSpaces().isEmpty }
    }
}
