import DNSSD
import DNSUpdate

/// Why a zone command cannot go on: `code` names what stopped it and carries the values its
/// words need (names, paths, counts), for code and tests to decide on; Output's `ZoneErrorText`
/// makes the message and the fix. The model is async-http-client's `HTTPClientError`.
package struct ZoneError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What stopped the command. Tests and callers match these, never the words.
    package enum Code: Sendable, Hashable {
        // The sources of Gateways (GatewayCollector, ThisHost, GatheredGateways)
        /// `--inventory PATH` cannot be read, or is not a browse document (`reason`, as Inventory says it).
        case inventoryUnusable(path: String, reason: String)
        /// `--this-host` on a machine without a Tailscale address; `host` is its label.
        case thisHostWithoutTailnet(host: String)
        /// A listing source failed or gave no Gateway, so nothing is removed on its word.
        case removalRefused(GatheredGateways.Removal, sources: [GatheredGateways.Listing])

        // The zone (ZoneWriter, ZoneFileUpdate)
        /// No address for ns1 (a usage error: `--ns-address`).
        case noNameServerAddress
        /// A name the zone would hold is not a DNS name.
        case invalidName(DNSSDError)
        /// The PTR RRset of `instances` Gateways, about `bytes` long, does not fit in one DNS message.
        case ptrRRsetTooLarge(instances: Int, type: ServiceType, bytes: Int)
        /// A Gateway whose records `zone check` would fail.
        case gatewayUnpublishable(ZoneGateway.Problem)
        /// The zone file holds content neither clawnet nor OpenClaw's Gateway writes.
        case zoneFileForeign(path: String)

        // Files (ZoneGeneration)
        /// A file could not be written (`reason`, as AtomicFile says it); nothing was.
        case notWritten(reason: String)
        /// A file named to be read is not one (`reason`, as RegularFile says it).
        case notRead(reason: String)

        // The Corefile (CorefileWriter, CorefileEdit)
        /// No address for CoreDNS to listen on (a usage error: `--bind`).
        case noListenAddress
        /// The zone's path holds a control character (`character`, shown safely by Output).
        case pathControlCharacter(String)
        /// The zone's path holds `"`, `\`, `{$` or `{%`.
        case pathCorefileSyntax
        case corefileNotUTF8(path: String)
        /// clawnet's marker lines are not one begin line then one end line (`lines`, 1-based).
        case corefileMarkersUnpaired(domain: DomainName, lines: [Int])
        /// An unbalanced `{`, or a block without braces before another.
        case corefileUnreadable
        /// A server block for the domain on port 53 that clawnet did not write, at `line`.
        case corefileForeignBlock(domain: DomainName, line: Int, key: String)

        // A wide-area registration (advertise --domain)
        /// Another host's SRV holds the instance name (`holder`: its target and port).
        case nameTaken(name: String, domain: DomainName, holder: String)
        /// The withdrawal failed; `remaining` are the records still there (zone-file lines).
        case withdrawFailed(name: String, domain: DomainName, failure: UpdateFailure, remaining: [String], ledger: String)
    }

    package let code: Code

    package init(_ code: Code) {
        self.code = code
    }

    /// Something the command line must give and did not (exit 2), rather than a zone that cannot be made.
    package var isUsage: Bool {
        switch code {
        case .noNameServerAddress, .noListenAddress: true
        default: false
        }
    }

    /// For logs and debugging only: a person reads `ZoneErrorText`.
    package var description: String { "ZoneError.\(code)" }
}
