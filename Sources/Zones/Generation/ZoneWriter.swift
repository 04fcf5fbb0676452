import DNSSD
import DNSWire

/// What a wide-area zone holds.
package struct ZoneContent: Sendable, Equatable {
    package var domain: DomainName
    package var type: ServiceType = .gateway
    package var gateways: [ZoneGateway]
    /// Addresses of ns1, the zone's name server.
    package var nameServerAddresses: [IPAddress]
    /// RFC 6763 §11 browse records (b, lb, _services); OpenClaw does not write them.
    package var browseRecords = false

    package init(domain: DomainName, gateways: [ZoneGateway], nameServerAddresses: [IPAddress], browseRecords: Bool = false) {
        self.domain = domain
        self.gateways = gateways
        self.nameServerAddresses = nameServerAddresses
        self.browseRecords = browseRecords
    }
}

/// Writes zone text in the layout OpenClaw's Gateway writes (so its nodes read it unchanged),
/// for any number of Gateways. Every name is escaped in presentation format and every TXT
/// string quoted, so no input can add a line, a directive, a comment or a record.
package enum ZoneWriter {
    package static let ttl = 60
    /// BIND 9.18.28+ refuses more than this many records of one type at one name by default.
    package static let bindRecordsPerType = 100
    /// A DNS message (and so the PTR RRset of one type) cannot be larger than this.
    package static let maxMessageBytes = 65_535
    /// The longest owner name text ldns reads (LDNS_MAX_DOMAINLEN).
    static let maxOwnerText = 255

    package struct Rendered: Sendable {
        package let text: String
        /// Things worth telling the operator (renamed duplicates, sizes).
        package let notes: [ZoneNote]
    }

    package static func render(_ content: ZoneContent, serial: UInt32) throws(ZoneError) -> Rendered {
        let (lines, notes) = try renderLines(content, serial: serial)
        return Rendered(text: lines.joined(separator: "\n") + "\n", notes: notes)
    }

    /// The zone as `zone generate --out` writes it to a file: `render`'s text under the
    /// content-hash comment OpenClaw's Gateway writes (`OpenClawContentHash`), so that a Gateway
    /// keeping the same file finds it unchanged while its own records are.
    package static func renderFile(_ content: ZoneContent, serial: UInt32) throws(ZoneError) -> Rendered {
        var (lines, notes) = try renderLines(content, serial: serial)
        let body = lines.joined(separator: "\n") + "\n"
        lines[soaLineIndex] = soaLine(serial: "SERIAL")
        let hash = OpenClawContentHash.line(maskedBody: lines.joined(separator: "\n") + "\n")
        return Rendered(text: hash + "\n" + body, notes: notes)
    }

    private static func renderLines(_ content: ZoneContent, serial: UInt32) throws(ZoneError) -> ([String], [ZoneNote]) {
        guard !content.nameServerAddresses.isEmpty else {
            throw ZoneError(.noNameServerAddress)
        }
        let (gateways, notes) = try validatedPlan(content)
        return (header(content, serial: serial) + gateways.records(in: content), notes)
    }

    /// The records `render` writes for the Gateways, as values: per Gateway its host's A and
    /// AAAA (once per host), the PTR, the SRV and the TXT, in the same order, with the same
    /// names, TTLs and TXT order. SOA, NS and ns1 are left out: `zone push` registers these
    /// records in a zone the operator's server already has.
    package static func serviceRecords(_ content: ZoneContent) throws(ZoneError) -> (records: [DNSRecord], notes: [ZoneNote]) {
        let (gateways, notes) = try validatedPlan(content)
        func name(_ labels: [[UInt8]]) throws(ZoneError) -> DNSName {
            do { return try DNSName(labels: labels) } catch { throw ZoneError(.invalidName(error)) }
        }
        let domain = content.domain.labels.map { Array($0.utf8) }
        let service = try name(content.type.labels.map { Array($0.utf8) } + domain)
        var records: [DNSRecord] = []
        var hostsWritten = Set<String>()
        for gateway in gateways {
            let host = try name([Array(gateway.hostLabel.utf8)] + domain)
            if hostsWritten.insert(gateway.hostLabel).inserted {
                records += gateway.addresses.map { address in
                    address.family == .v4
                        ? DNSRecord(name: host, type: .a, ttl: UInt32(ttl), data: .a(address))
                        : DNSRecord(name: host, type: .aaaa, ttl: UInt32(ttl), data: .aaaa(address))
                }
            }
            let instance = try name([gateway.instance.bytes] + service.labels)
            let txt = gateway.txt.strings.isEmpty ? (try? TXTRecord(strings: [[]])) ?? gateway.txt : gateway.txt
            records.append(DNSRecord(name: service, type: .ptr, ttl: UInt32(ttl), data: .ptr(instance)))
            records.append(
                DNSRecord(
                    name: instance, type: .srv, ttl: UInt32(ttl),
                    data: .srv(priority: 0, weight: 0, port: UInt16(gateway.port), target: host)))
            records.append(DNSRecord(name: instance, type: .txt, ttl: UInt32(ttl), data: .txt(txt)))
        }
        return (records, notes)
    }

    /// The Gateways in their planned order and names, checked against the limits a zone and
    /// its servers have; notes about renames and sizes.
    static func validatedPlan(_ content: ZoneContent) throws(ZoneError) -> ([ZoneGateway], [ZoneNote]) {
        let (gateways, notes) = plan(content.gateways)
        let sizeNotes = try sizes(gateways, content)
        try checkGateways(gateways, content)
        return (gateways, notes + sizeNotes)
    }

    /// The size of the answer that carries one record of `rdata` bytes at `owner`: header,
    /// question, then the record with its owner compressed to a pointer.
    static func answerBytes(owner: DNSName, rdata: Int) -> Int {
        answerBytes(ownerWire: owner.wire.count, rdata: rdata)
    }

    static func answerBytes(ownerWire: Int, rdata: Int) -> Int {
        12 + ownerWire + 4 + 2 + 10 + rdata
    }

    /// A PTR set that cannot fit in one message is an error; what BIND refuses is a note.
    static func sizes(_ gateways: [ZoneGateway], _ content: ZoneContent) throws(ZoneError) -> [ZoneNote] {
        let ptrBytes = ptrRRsetBytes(gateways, type: content.type, domain: content.domain)
        if ptrBytes > maxMessageBytes {
            throw ZoneError(.ptrRRsetTooLarge(instances: gateways.count, type: content.type, bytes: ptrBytes))
        }
        let slab = ptrRRsetUncompressedBytes(gateways, type: content.type, domain: content.domain)
        if slab > maxMessageBytes {
            return [.bindSlabTooLarge(instances: gateways.count, bytes: slab)]
        } else if gateways.count > bindRecordsPerType {
            return [.bindRecordsPerType(instances: gateways.count)]
        }
        return []
    }

    /// Every Gateway (renamed ones too) passes, before any text is made, each rule `zone check`
    /// fails a Gateway's records on (ports, name lengths, an address, TXT values and size);
    /// the rest of the zone (SOA, NS, ns1, the record layout) is fixed. So no zone that
    /// `zone check` fails is ever written: ZoneWriterTests checks that property on random input.
    static func checkGateways(_ gateways: [ZoneGateway], _ content: ZoneContent) throws(ZoneError) {
        for gateway in gateways {
            if let problem = gateway.problem(domain: content.domain, type: content.type) {
                throw ZoneError(.gatewayUnpublishable(problem))
            }
        }
    }

    /// $ORIGIN, $TTL, SOA, NS, ns1's addresses and, when asked for, the browse records.
    /// The SOA `header` writes after its serial: the mark of a zone file clawnet wrote.
    static let soaTimers = "7200 3600 1209600 60"

    /// True when `bytes` begin with the header `render` writes (`$ORIGIN`, `$TTL`, the SOA with
    /// ns1, hostmaster and these timers, `@ IN NS ns1`), under OpenClaw's content-hash comment
    /// or without it: the only zone file `zone generate --out` replaces. It is also OpenClaw's
    /// Gateway's layout, kept byte for byte, so the mark is these lines rather than a comment
    /// of clawnet's own.
    package static func wrote(_ bytes: [UInt8]) -> Bool {
        let lines = records(of: bytes).split(separator: UInt8(ascii: "\n"), maxSplits: 4, omittingEmptySubsequences: false).prefix(4)
            .map { String(decoding: $0, as: UTF8.self) }
        guard lines.count == 4 else { return false }
        let soa = lines[2].split(separator: " ")
        return lines[0].hasPrefix("$ORIGIN ") && lines[1].hasPrefix("$TTL ") && lines[3] == "@ IN NS ns1" && soa.count == 10
            && soa[..<5] == ["@", "IN", "SOA", "ns1", "hostmaster"] && UInt32(soa[5]) != nil
            && soa[6...].joined(separator: " ") == soaTimers
    }

    /// True when all of `bytes` is a zone `render` could have written for `content`'s domain:
    /// the header (`wrote`) with that `$ORIGIN`, then only records of the shapes it writes (ns1
    /// and SRV targets' addresses, the service's PTRs and the browse PTRs, instances' SRV and
    /// TXT). A record added by hand, or a zone of another domain, makes it someone else's.
    package static func wrote(_ bytes: [UInt8], for content: ZoneContent) -> Bool {
        guard wrote(bytes) else { return false }
        let lines = String(decoding: records(of: bytes), as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.first == "$ORIGIN \(content.domain.name)" else { return false }
        let service = content.type.name
        let browsing: Set<String> = ["b._dns-sd._udp", "lb._dns-sd._udp", "_services._dns-sd._udp"]
        var targets: Set<String> = ["ns1"]
        var addressed: [String] = []
        for line in lines.dropFirst(4) {
            let fields = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard fields.count == 4, fields[1] == "IN" else { return false }
            let (owner, type, data) = (fields[0], fields[2], fields[3])
            switch type {
            case "A", "AAAA": addressed.append(owner)
            case "PTR": guard owner == service || browsing.contains(owner) else { return false }
            case "SRV", "TXT":
                guard owner.hasSuffix(".\(service)") else { return false }
                if type == "SRV", let target = data.split(separator: " ").last { targets.insert(String(target)) }
            default: return false
            }
        }
        return addressed.allSatisfy(targets.contains)
    }

    /// A zone file's text after OpenClaw's content-hash comment, when its first line is one.
    static func records(of bytes: [UInt8]) -> ArraySlice<UInt8> {
        let first = bytes.prefix { $0 != UInt8(ascii: "\n") }
        guard first.count < bytes.count, OpenClawContentHash.isLine(String(decoding: first, as: UTF8.self)) else { return bytes[...] }
        return bytes[(first.count + 1)...]
    }

    /// Where the SOA is among the lines `header` writes.
    static let soaLineIndex = 2

    static func soaLine(serial: String) -> String { "@ IN SOA ns1 hostmaster \(serial) \(soaTimers)" }

    static func header(_ content: ZoneContent, serial: UInt32) -> [String] {
        var lines = ["$ORIGIN \(content.domain.name)", "$TTL \(ttl)", soaLine(serial: "\(serial)"), "@ IN NS ns1"]
        lines += content.nameServerAddresses.map { "ns1 IN \($0.family == .v4 ? "A" : "AAAA") \($0.withoutZone)" }
        if content.browseRecords {
            lines += ["b._dns-sd._udp IN PTR @", "lb._dns-sd._udp IN PTR @", "_services._dns-sd._udp IN PTR \(content.type.name)"]
        }
        return lines
    }

    /// A stable order and unique names: identical duplicates dropped, clashing instance names
    /// renamed the way OpenClaw resolves conflicts (" (2)"), one host label per address set.
    /// Each renaming loop tries distinct names that fit in 63 bytes, so it ends after at most
    /// as many tries as there are names already taken.
    static func plan(_ input: [ZoneGateway]) -> ([ZoneGateway], [ZoneNote]) {
        var notes: [ZoneNote] = []
        var result: [ZoneGateway] = []
        var seen = Set<ZoneGateway>()
        var names = Set<InstanceName>()
        var hostAddresses: [String: Set<IPAddress>] = [:]
        // Each name's sort key is made once, not at every comparison.
        let ordered = input.map { (key: $0.instance.key, gateway: $0) }.sorted {
            ($0.key, $0.gateway.hostLabel, $0.gateway.port) < ($1.key, $1.gateway.hostLabel, $1.gateway.port)
        }
        for var gateway in ordered.map(\.gateway) {
            guard seen.insert(gateway).inserted else { continue }
            let original = gateway.instance
            var suffix = 2
            while names.contains(gateway.instance) {
                gateway.instance = original.numbered(suffix)
                suffix += 1
            }
            names.insert(gateway.instance)
            if gateway.instance != original {
                notes.append(.instanceRenamed(name: original.displayName, published: gateway.instance.displayName))
            }
            let label = gateway.hostLabel
            let addresses = Set(gateway.addresses.map(\.withoutZone))
            var number = 2
            // A label is taken by a host with other addresses, or by ns1, the name server.
            while gateway.hostLabel == "ns1" || hostAddresses[gateway.hostLabel].map({ $0 != addresses }) == true {
                let suffix = "-\(number)"
                gateway.hostLabel = String(label.prefix(InstanceName.maxBytes - suffix.utf8.count)) + suffix
                number += 1
            }
            if gateway.hostLabel != label {
                notes.append(.hostRenamed(host: label, gateway: gateway.instance.displayName, published: gateway.hostLabel))
            }
            hostAddresses[gateway.hostLabel] = addresses
            result.append(gateway)
        }
        return (result, notes)
    }

    /// The PTR's RDATA: the instance name in presentation format. A label of exactly `@` goes
    /// in RFC 3597's generic form (`\# length hex`), which ldns, BIND, Knot, NSD and CoreDNS
    /// all read: ldns reads any escaped form of it (`\064`, `\@`) in RDATA as the origin.
    static func ptrData(_ instance: InstanceName, type: ServiceType, domain: DomainName) -> String {
        let relative = "\(instance.presentation).\(type.name)"
        guard instance.bytes == [UInt8(ascii: "@")], let name = try? DNSName(instance: instance, type: type, domain: domain) else {
            return relative
        }
        let hex = name.wire.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        return "\\# \(name.wire.count) \(hex)"
    }

    /// BIND keeps an RRset uncompressed, each record with a 2-byte length, in at most 64 KiB:
    /// past that it refuses the whole zone ("ran out of space"), though the compressed
    /// answer would still fit in a message.
    static func ptrRRsetUncompressedBytes(_ gateways: [ZoneGateway], type: ServiceType, domain: DomainName) -> Int {
        let suffix = type.labels.reduce(0) { $0 + $1.utf8.count + 1 } + domain.labels.reduce(0) { $0 + $1.utf8.count + 1 } + 1
        return gateways.reduce(0) { $0 + 2 + 1 + $1.instance.bytes.count + suffix }
    }

    /// The wire size of the PTR RRset in an answer: header, question, and per record a
    /// compressed owner (2), type/class/ttl/length (10) and the target (its instance label,
    /// then a pointer).
    static func ptrRRsetBytes(_ gateways: [ZoneGateway], type: ServiceType, domain: DomainName) -> Int {
        let question = type.labels.reduce(0) { $0 + $1.utf8.count + 1 } + domain.labels.reduce(0) { $0 + $1.utf8.count + 1 } + 1 + 4
        return 12 + question + gateways.reduce(0) { $0 + 2 + 10 + 1 + $1.instance.bytes.count + 2 }
    }
}

extension [ZoneGateway] {
    /// Per Gateway: its host's addresses (once per host), the PTR, the SRV and the TXT.
    func records(in content: ZoneContent) -> [String] {
        let type = content.type.name
        var lines: [String] = []
        var hostsWritten = Set<String>()
        for gateway in self {
            if hostsWritten.insert(gateway.hostLabel).inserted {
                // A zone id (%eth0) names an interface of one machine: it never goes into a zone.
                lines += gateway.addresses.map { "\(gateway.hostLabel) IN \($0.family == .v4 ? "A" : "AAAA") \($0.withoutZone)" }
            }
            let instance = "\(gateway.instance.presentation).\(type)"
            let strings = gateway.txt.strings.isEmpty ? [[]] : gateway.txt.strings
            let txt = "IN TXT " + strings.map { Presentation.quoteCharacterString($0) }.joined(separator: " ")
            lines.append("\(type) IN PTR \(ZoneWriter.ptrData(gateway.instance, type: content.type, domain: content.domain))")
            if instance.utf8.count <= ZoneWriter.maxOwnerText {
                lines.append("\(instance) IN SRV 0 0 \(gateway.port) \(gateway.hostLabel)")
                lines.append("\(instance) \(txt)")
            } else {
                // ldns reads an owner name's text into 255 characters; a long escaped name
                // (63 bytes of \DDD) fits only relative to the service type.
                lines.append("$ORIGIN \(type).\(content.domain.name)")
                lines.append("\(gateway.instance.presentation) IN SRV 0 0 \(gateway.port) \(gateway.hostLabel).\(content.domain.name)")
                lines.append("\(gateway.instance.presentation) \(txt)")
                lines.append("$ORIGIN \(content.domain.name)")
            }
        }
        return lines
    }
}
