import FoundationEssentials

/// The `hosts:` line of /etc/nsswitch.conf, read as glibc reads it: the sources in order,
/// `[STATUS=action]` items and `#` comments left out (nsswitch.conf(5)).
package struct NSSwitchHosts: Sendable, Hashable {
    /// The line as written, for messages.
    package let line: String
    /// The services asked, in order: `files`, `mdns4_minimal`, `dns`, ...
    package let sources: [String]

    /// Reads a `hosts:` line; nil when the line is not one (or is commented out).
    package init?(line: String) {
        let text = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first, first.hasPrefix("hosts:") else { return nil }
        let rest = [first.dropFirst("hosts:".count)].filter { !$0.isEmpty } + words.dropFirst()
        var sources: [String] = []
        var inAction = false
        for word in rest {
            // Actions such as `[NOTFOUND=return]` may carry blanks inside the brackets.
            if word.hasPrefix("[") { inAction = true }
            if !inAction { sources.append(String(word)) }
            if word.hasSuffix("]") { inAction = false }
        }
        self.line = words.joined(separator: " ")
        self.sources = sources
    }

    /// The `hosts:` line of a whole nsswitch.conf, when it has one.
    package static func parse(file text: String) -> NSSwitchHosts? {
        text.split(separator: "\n").lazy.compactMap { NSSwitchHosts(line: String($0)) }.first
    }

    /// The services of nss-mdns (mdns, mdns4, mdns6, each also `_minimal`) this line asks.
    package var multicastDNSSources: [String] { sources.filter { Self.mdnsModules.contains($0) } }

    /// Whether `.local` names go to mDNS through getaddrinfo.
    package var asksMulticastDNS: Bool { !multicastDNSSources.isEmpty }

    /// The NSS services that nss-mdns installs, each as `libnss_<service>.so.2`.
    package static let mdnsModules: Set<String> = [
        "mdns", "mdns4", "mdns6", "mdns_minimal", "mdns4_minimal", "mdns6_minimal",
    ]

    /// The library glibc loads for a service (`libnss_mdns4_minimal.so.2`).
    package static func library(of service: String) -> String { "libnss_\(service).so.2" }

    /// The nss-mdns services whose library is in one of `directories`.
    package static func installedMDNSModules(in directories: [String]) -> Set<String> {
        Set(
            mdnsModules.filter { service in
                directories.contains { FileManager.default.fileExists(atPath: "\($0)/\(library(of: service))") }
            })
    }

    /// Where glibc looks for NSS modules on Debian-like and other systems: the lib
    /// directories and their multiarch subdirectories (`/usr/lib/x86_64-linux-gnu`).
    package static func libraryDirectories() -> [String] {
        let roots = ["/lib", "/usr/lib", "/lib64", "/usr/lib64"]
        let multiarch = roots.flatMap { root in
            ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.contains("-linux-") }.sorted()
                .map { "\(root)/\($0)" }
        }
        return roots + multiarch
    }
}
