import DNSSD
import Host

/// `zone generate`: the zone of the Gateways gathered, printed, or written atomically with
/// the CoreDNS stanza that serves it (both files change together or neither does).
package struct ZoneGeneration: Sendable {
    package var domain: DomainName
    /// `ns1`'s addresses; empty: this machine's Tailscale addresses.
    package var nameServers: [IPAddress] = []
    /// The zone file to write (absolute); nil: the zone is printed.
    package var out: String?
    /// The Corefile to put the stanza in (absolute; needs `out`).
    package var corefile: String?
    /// Where CoreDNS listens; empty: this machine's Tailscale addresses.
    package var bind: [IPAddress] = []
    /// How the stanza has CoreDNS serve the zone: the file written, every zone file in its
    /// directory, or by transfer from `primaries`.
    package var plugin = CorefileWriter.Plugin.file
    package var primaries: [DNSServer] = []
    package var browseRecords = false

    package init(domain: DomainName) {
        self.domain = domain
    }

    package enum Outcome: Sendable {
        /// The zone, for stdout, and notes on it (the sources' too).
        case printed(ZoneWriter.Rendered, notes: [ZoneNote])
        case written(Written)
        /// Nothing written: the sources are no reason to replace the zone in the file.
        case refused(ZoneError, notes: [ZoneNote])
    }

    package struct Written: Sendable {
        package let zone: ZoneFileUpdate.Outcome
        /// Distinct Gateways in the zone.
        package let gateways: Int
        package let corefile: CorefileChange?
        /// The sources' notes, then the zone's.
        package let notes: [ZoneNote]
    }

    package struct CorefileChange: Sendable {
        package let path: String
        package let changed: Bool
        package let bind: [IPAddress]
        package let plugin: CorefileWriter.Plugin
    }

    /// The zone for `gathered`. With `out`, a source that failed or gave no Gateway leaves the
    /// file as it is (`GatheredGateways.removalRefusal`): writing the file replaces every Gateway
    /// it holds, and a browse that failed or found nothing (the network down, a filter too
    /// strict) must not empty a zone that serves Gateways today.
    package func run(_ gathered: GatheredGateways, tailscale: [IPAddress], today: SerialPolicy.Day) throws -> Outcome {
        let content = ZoneContent(
            domain: domain, gateways: gathered.gateways, nameServerAddresses: nameServers.isEmpty ? tailscale : nameServers,
            browseRecords: browseRecords)
        guard let out else {
            let rendered = try ZoneWriter.render(content, serial: SerialPolicy.next(after: nil, today: today))
            return .printed(rendered, notes: gathered.notes + rendered.notes)
        }
        if let refusal = gathered.removalRefusal(.zoneFile(path: out)) {
            return .refused(refusal, notes: gathered.notes)
        }
        do {
            let written = try write(content, out: out, tailscale: tailscale, today: today)
            let gateways = Set(content.gateways.map(\.instance)).count
            return .written(
                Written(zone: written.zone, gateways: gateways, corefile: written.corefile, notes: gathered.notes + written.zone.notes))
        } catch let error as AtomicFile.Failure {
            throw ZoneError(.notWritten(reason: error.description))
        } catch let error as RegularFile.Failure {
            throw ZoneError(.notRead(reason: error.description))
        }
    }

    /// The zone and, with a Corefile, the stanza: both prepared and checked first, then
    /// written together.
    private func write(_ content: ZoneContent, out path: String, tailscale: [IPAddress], today: SerialPolicy.Day) throws -> (
        zone: ZoneFileUpdate.Outcome, corefile: CorefileChange?
    ) {
        let target = try AtomicFile.Replacement(path, limit: FileLimit.zone)
        let zone = try ZoneFileUpdate.prepare(content, at: path, existing: target.existing, today: today)
        var changes = zone.changed ? [OutputFile.Change(target, path: path, text: zone.text)] : []
        var corefileChange: CorefileChange?
        if let corefile {
            let bind = bind.isEmpty ? tailscale : bind
            guard !bind.isEmpty else {
                throw ZoneError(.noListenAddress)
            }
            let stanza = try CorefileWriter.stanza(domain: domain, bind: bind, serving: serving(zonePath: path))
            let change = try CorefileEdit.prepare(stanza, domain: domain, at: corefile)
            corefileChange = CorefileChange(path: corefile, changed: change != nil, bind: bind, plugin: plugin)
            changes += change.map { [$0] } ?? []
        }
        try OutputFile.writeTogether(changes)
        return (zone, corefileChange)
    }

    private func serving(zonePath: String) -> CorefileWriter.Serving {
        switch plugin {
        case .file: .file(zonePath)
        case .auto: .auto(directory: zonePath.lastIndex(of: "/").map { String(zonePath[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? ".")
        case .secondary: .secondary(primaries: primaries)
        }
    }

    /// `path` as an absolute path: the stanza names the zone file, and CoreDNS runs elsewhere.
    package static func absolute(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }
}
