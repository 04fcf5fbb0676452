import DNSSD

/// systemd-resolved's view of this machine's DNS, as `resolvectl status` prints it: a global
/// section and one per link, each with its DNS servers and domains. A domain with a `~` is a
/// routing domain only: queries under it go to that link's servers (resolved.conf(5),
/// systemd-resolved.service(8) "Protocols and Routing"). Read from recorded output in tests;
/// resolved does not run in the test bed.
package struct ResolvedStatus: Sendable, Equatable {
    package struct Link: Sendable, Equatable {
        /// `Global`, or the interface (`tailscale0`).
        package let name: String
        package var servers: [String] = []
        package var domains: [String] = []

        package init(name: String, servers: [String] = [], domains: [String] = []) {
            self.name = name
            self.servers = servers
            self.domains = domains
        }

        /// Whether this link's domains route `domain` (a suffix match; `~.` routes everything).
        package func routes(_ domain: DomainName) -> Bool {
            domains.contains { entry in
                let routed = entry.hasPrefix("~") ? String(entry.dropFirst()) : entry
                guard routed != ".", !routed.isEmpty else { return true }
                return DomainName(host: routed).map { domain.isWithin($0) } ?? false
            }
        }
    }

    package var global = Link(name: "Global")
    package var links: [Link] = []

    /// The most links a status lists that are read: more than any machine has.
    static let linkLimit = 256

    package init(global: Link = Link(name: "Global"), links: [Link] = []) {
        self.global = global
        self.links = links
    }

    /// Reads `resolvectl status` output. Sections start with `Global` or `Link N (name)`; in
    /// them, `Key: value` lines, a long value continuing on indented lines without a key.
    package init(text: String) {
        var current: Link?
        var key = ""
        func finish() {
            guard let done = current else { return }
            if done.name == "Global" { global = done } else if links.count < Self.linkLimit { links.append(done) }
        }
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = String(raw).trimmingSpaces()
            if line == "Global" || line.hasPrefix("Link ") && line.hasSuffix(")") {
                finish()
                let name = line == "Global" ? "Global" : String(line.drop { $0 != "(" }.dropFirst().dropLast())
                current = Link(name: name)
                key = ""
                continue
            }
            guard current != nil else { continue }
            var values = Substring(line)
            if let colon = line.firstRange(of: ": "), line[..<colon.lowerBound].allSatisfy({ $0.isLetter || $0 == " " }) {
                key = String(line[..<colon.lowerBound])
                values = line[colon.upperBound...]
            }
            let words = values.split(separator: " ").map(String.init)
            switch key {
            case "DNS Servers": current?.servers += words
            case "DNS Domain": current?.domains += words
            default: break
            }
        }
        finish()
    }

    /// The links that route `domain` by one of their domains.
    package func routing(_ domain: DomainName) -> [Link] { links.filter { $0.routes(domain) } }
}
