import DNSSD

/// The CoreDNS server block that serves a zone, in the three ways CoreDNS does it (coredns.io
/// plugins `file`, `auto`, `secondary`): the `file` form is what OpenClaw writes on macOS.
package enum CorefileWriter {
    /// The plugin a stanza uses, as `zone generate --coredns` names it.
    package enum Plugin: String, CaseIterable, Sendable {
        case file, auto, secondary
    }

    /// How CoreDNS gets the zone.
    package enum Serving: Sendable, Equatable {
        /// `file` with `reload`: the zone file clawnet writes.
        case file(String)
        /// `auto`: every `<domain>.db` in a directory, one zone each (sharded domains).
        case auto(directory: String)
        /// `secondary`: transferred by AXFR from the primary `zone push` feeds.
        case secondary(primaries: [DNSServer])
    }

    /// How often CoreDNS looks at the files for a new serial (OpenClaw's `reload 10s`).
    static let reload = "10s"

    /// The `auto` plugin's file name pattern and origin template, for the files clawnet and
    /// OpenClaw write (`<domain>.db`); CoreDNS's default `db\.(.*)` wants `db.<domain>`. Go's RE2
    /// syntax, matched against the base name (coredns plugin/auto walk.go `matches`):
    /// anchored so that backups (`x.db~`, `x.db.bak`) and clawnet's own temporary files
    /// (`.x.db.<random>`, dot-first) are never loaded as zones.
    package static let autoPattern = #"^([^.].*)\.db$"#
    package static let autoOriginTemplate = "{1}"

    /// The stanza serving `zonePath` with `file` (what doctor's snippets and `--coredns file` write).
    package static func stanza(domain: DomainName, bind: [IPAddress], zonePath: String) throws(ZoneError) -> String {
        try stanza(domain: domain, bind: bind, serving: .file(zonePath))
    }

    /// The stanza; a path must pass `pathToken` (the command checks it first).
    package static func stanza(domain: DomainName, bind: [IPAddress], serving: Serving) throws(ZoneError) -> String {
        let plugin: String
        switch serving {
        case .file(let path):
            plugin = "  file \(try pathToken(path)) {\n    reload \(reload)\n  }\n"
        case .auto(let directory):
            plugin = "  auto {\n    directory \(try pathToken(directory)) \(autoPattern) \(autoOriginTemplate)\n    reload \(reload)\n  }\n"
        case .secondary(let primaries):
            // coredns plugin/secondary: `transfer from ADDRESS...`, each an IP or IP:port.
            let from = primaries.map {
                $0.port == 53 ? "\($0.address.withoutZone)" : "\(Endpoint(host: "\($0.address.withoutZone)", port: $0.port))"
            }
            plugin = "  secondary {\n    transfer from \(from.joined(separator: " "))\n  }\n"
        }
        // A zone id (%eth0) has no place in a Corefile: only the address is written.
        return """
            \(domain.withoutTrailingDot):53 {
              bind \(bind.map { $0.withoutZone.description }.joined(separator: " "))
            \(plugin)  errors
              log
            }

            """
    }

    /// A path as one Corefile token, or why it cannot be one. CoreDNS's lexer (coredns/caddy,
    /// caddyfile/lexer.go and parse.go) splits tokens on white space, starts a comment at
    /// `#`, and inside quotes escapes only `"`, keeping any other `\`; `{$NAME}` and
    /// `{%NAME%}` are replaced by environment variables even in quotes. So: control characters,
    /// `"`, `\`, `{$` and `{%` are refused; a path with white space, `#`, `{` or `}` is quoted.
    package static func pathToken(_ path: String) throws(ZoneError) -> String {
        if let bad = path.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw ZoneError(.pathControlCharacter(String(bad)))
        }
        if path.contains("\"") || path.contains("\\") || path.contains("{$") || path.contains("{%") {
            throw ZoneError(.pathCorefileSyntax)
        }
        guard path.contains(where: { $0.isWhitespace || $0 == "#" || $0 == "{" || $0 == "}" }) else { return path }
        return "\"" + path + "\""
    }

    /// What to do after writing the files: run CoreDNS, point Tailscale at it, verify.
    package static func nextSteps(
        domain: DomainName, bind: [IPAddress], corefilePath: String, zonePath: String, plugin: Plugin = .file
    ) -> String {
        let address = bind.first.map(\.description) ?? "<address>"
        let name = domain.withoutTrailingDot
        return """
            Next steps:
              1. Run CoreDNS with this Corefile (Linux has no package: take the static binary from
                 https://github.com/coredns/coredns/releases), e.g. as a systemd service:
                   [Unit]
                   Description=CoreDNS for \(name)
                   After=network-online.target tailscaled.service
                   [Service]
                   ExecStart=/usr/local/bin/coredns -conf \(corefilePath)
                   Restart=on-failure
                   AmbientCapabilities=CAP_NET_BIND_SERVICE
                   [Install]
                   WantedBy=multi-user.target
                 or in a shell: sudo coredns -conf \(ShellWord.quoted(corefilePath))
              2. Tailscale admin console, DNS: add a nameserver \(address), tick "Restrict to domain"
                 and enter \(name) (split DNS). Nodes must accept DNS (`tailscale set --accept-dns=true`).
              3. Verify: clawnet zone check \(ShellWord.quoted(zonePath)) --server \(address)
                         clawnet browse --domain \(name)
              \(servingNote(plugin))
            """
    }
}

extension CorefileWriter {
    /// What keeps the served zone current, by plugin.
    static func servingNote(_ plugin: Plugin) -> String {
        switch plugin {
        case .file:
            "CoreDNS reloads the file only when its serial changes: `clawnet zone generate` bumps it."
        case .auto:
            "CoreDNS loads every <domain>.db in that folder as the zone <domain> and reloads one when its serial changes."
        case .secondary:
            "CoreDNS's secondary asks unsigned (no TSIG): the primary must allow AXFR from CoreDNS's address (BIND "
                + "`allow-transfer`, Knot an acl with `address:` and `action: transfer`, PowerDNS `allow-axfr-ips`); it transfers "
                + "again when the SOA refresh timer fires. Keep the zone current with `clawnet zone push` to the primary."
        }
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
