import DNSSD

/// The CoreDNS server block that serves a zone file, as OpenClaw writes it on macOS.
public enum CorefileWriter {
    /// The stanza; `zonePath` must pass `pathToken` (the command checks it first).
    public static func stanza(domain: DomainName, bind: [IPAddress], zonePath: String) throws(ZoneError) -> String {
        // A zone id (%eth0) has no place in a Corefile: only the address is written.
        """
        \(domain.withoutTrailingDot):53 {
          bind \(bind.map { $0.withoutZone.description }.joined(separator: " "))
          file \(try pathToken(zonePath)) {
            reload 10s
          }
          errors
          log
        }

        """
    }

    /// A path as one Corefile token, or why it cannot be one. CoreDNS's lexer (coredns/caddy,
    /// caddyfile/lexer.go and parse.go) splits tokens on white space, starts a comment at
    /// `#`, and inside quotes escapes only `"`, keeping any other `\`; `{$NAME}` and
    /// `{%NAME%}` are replaced by environment variables even in quotes. So: control characters,
    /// `"`, `\`, `{$` and `{%` are refused; a path with white space, `#`, `{` or `}` is quoted.
    public static func pathToken(_ path: String) throws(ZoneError) -> String {
        if let bad = path.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw ZoneError(
                "the zone's path holds a control character (\(SafeText.display(Array(String(bad).utf8)))), which would break the "
                    + "Corefile's `file` line",
                fix: "give --out a path without control characters")
        }
        if path.contains("\"") || path.contains("\\") || path.contains("{$") || path.contains("{%") {
            throw ZoneError(
                "the zone's path holds `\"`, `\\`, `{$` or `{%`, which CoreDNS would read differently in its Corefile",
                fix: "give --out a path without them")
        }
        guard path.contains(where: { $0.isWhitespace || $0 == "#" || $0 == "{" || $0 == "}" }) else { return path }
        return "\"" + path + "\""
    }

    /// What to do after writing the files: run CoreDNS, point Tailscale at it, verify.
    public static func nextSteps(domain: DomainName, bind: [IPAddress], corefilePath: String, zonePath: String) -> String {
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
                 or in a shell: sudo coredns -conf \(corefilePath)
              2. Tailscale admin console, DNS: add a nameserver \(address), tick "Restrict to domain"
                 and enter \(name) (split DNS). Nodes must accept DNS (`tailscale set --accept-dns=true`).
              3. Verify: clawnet zone check \(zonePath) --server \(address)
                         clawnet browse --domain \(name)
              CoreDNS reloads the file only when its serial changes: `clawnet zone generate` bumps it.
            """
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
