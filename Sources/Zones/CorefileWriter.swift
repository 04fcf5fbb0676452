import DNSSD

/// The CoreDNS server block that serves a zone file, as OpenClaw writes it on macOS.
public enum CorefileWriter {
    public static func stanza(domain: DomainName, bind: [IPAddress], zonePath: String) -> String {
        """
        \(domain.withoutTrailingDot):53 {
          bind \(bind.map { IPAddress(bytes: $0.bytes, zone: $0.zone)!.description }.joined(separator: " "))
          file \(token(zonePath)) {
            reload 10s
          }
          errors
          log
        }

        """
    }

    /// Corefile tokens split on white space; quote a path that has any.
    static func token(_ text: String) -> String {
        guard text.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "{" || $0 == "}" || $0 == "#" }) else { return text }
        return "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
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
