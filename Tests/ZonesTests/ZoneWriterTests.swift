import DNSSD
import DNSWire
import Foundation
import TestSupport
import Testing

@testable import Zones

let domain = try! DomainName(validating: "openclaw.internal")
let fingerprint = String(repeating: "ab", count: 32)

func studio() throws -> ZoneGateway {
    try GatewaySpec.parse(
        "host=studio,ip=100.101.102.103,ip=fd7a:115c:a1e0::1,name=studio-gateway,display=Studio,tls=\(fingerprint),tailnet=studio.tail1234.ts.net,ssh=22,cli=/usr/local/bin/openclaw"
    )
}

@Suite("Zone writer")
struct ZoneWriterTests {
    @Test("one Gateway: byte for byte the layout OpenClaw's Gateway writes (golden)")
    func openClawLayout() throws {
        let content = ZoneContent(domain: domain, gateways: [try studio()], nameServerAddresses: [IPAddress("100.101.102.103")!])
        let rendered = try ZoneWriter.render(content, serial: 2_026_112_201)
        #expect(
            rendered.text == """
                $ORIGIN openclaw.internal.
                $TTL 60
                @ IN SOA ns1 hostmaster 2026112201 7200 3600 1209600 60
                @ IN NS ns1
                ns1 IN A 100.101.102.103
                studio IN A 100.101.102.103
                studio IN AAAA fd7a:115c:a1e0::1
                _openclaw-gw._tcp IN PTR studio-gateway._openclaw-gw._tcp
                studio-gateway._openclaw-gw._tcp IN SRV 0 0 18789 studio
                studio-gateway._openclaw-gw._tcp IN TXT "displayName=Studio" "role=gateway" "transport=gateway" "gatewayPort=18789" "gatewayTls=1" "gatewayTlsSha256=\(fingerprint)" "tailnetDns=studio.tail1234.ts.net" "sshPort=22" "cliPath=/usr/local/bin/openclaw"

                """)
        #expect(rendered.notes.isEmpty)
    }

    @Test("a zone file clawnet wrote is known by its header; a hand-written zone, notes, a fragment are not (issue 18)")
    func wroteMark() throws {
        let content = ZoneContent(domain: domain, gateways: [try studio()], nameServerAddresses: [IPAddress("100.101.102.103")!])
        #expect(ZoneWriter.wrote(Array(try ZoneWriter.render(content, serial: 2_026_112_201).text.utf8)))
        for other in [
            "$ORIGIN openclaw.internal.\n$TTL 60\n@ IN SOA ns1 hostmaster 1 3600 600 86400 60\n@ IN NS ns1\n",
            "$ORIGIN openclaw.internal.\n$TTL 60\n@ IN SOA ns1 hostmaster x 7200 3600 1209600 60\n@ IN NS ns1\n",
            "my notes\n", "", try ZoneWriter.fragment(content).text,
        ] {
            #expect(!ZoneWriter.wrote(Array(other.utf8)), "\(other)")
        }
        // The whole file counts: clawnet's own output, yes; with a record added by hand, or for
        // another domain, no (a second outside attack had both replaced).
        let written = try ZoneWriter.render(content, serial: 2_026_112_201).text
        #expect(ZoneWriter.wrote(Array(written.utf8), for: content))
        let browsing = ZoneContent(
            domain: domain, gateways: [try studio()], nameServerAddresses: [IPAddress("100.101.102.103")!], browseRecords: true)
        #expect(ZoneWriter.wrote(Array(try ZoneWriter.render(browsing, serial: 1).text.utf8), for: browsing))
        for edited in [
            written + "important IN TXT \"keep me\"\n", written + "www IN A 10.0.0.80\n",
            written.replacingOccurrences(of: "$ORIGIN openclaw.internal.", with: "$ORIGIN corp.example."),
        ] {
            #expect(!ZoneWriter.wrote(Array(edited.utf8), for: content), "\(edited)")
        }
    }

    @Test("browse records are added only when asked for")
    func browseRecords() throws {
        var content = ZoneContent(domain: domain, gateways: [try studio()], nameServerAddresses: [IPAddress("100.101.102.103")!])
        #expect(!(try ZoneWriter.render(content, serial: 1).text.contains("_dns-sd._udp")))
        content.browseRecords = true
        let text = try ZoneWriter.render(content, serial: 1).text
        #expect(text.contains("b._dns-sd._udp IN PTR @\nlb._dns-sd._udp IN PTR @\n_services._dns-sd._udp IN PTR _openclaw-gw._tcp\n"))
    }

    @Test(
        "OpenClaw's label rule",
        arguments: [
            ("Studio Mac", "studio-mac"), ("  --Lab__Box--  ", "lab-box"), ("Café", "caf"), ("🦞", "openclaw"),
            (String(repeating: "a", count: 70), String(repeating: "a", count: 63)), ("a.b.c", "a-b-c"),
        ])
    func labels(raw: String, label: String) {
        #expect(ZoneGateway.label(raw, fallback: "openclaw") == label)
    }

    @Test("gateway specs parse; defaults follow OpenClaw")
    func specs() throws {
        let plain = try GatewaySpec.parse("host=Lab.example.com,ip=10.0.0.5")
        #expect(plain.hostLabel == "lab")
        #expect(plain.instance.displayName == "lab-gateway")
        #expect(plain.port == 18789)
        #expect(plain.txt.attributes.ordered.map(\.key) == ["displayName", "role", "transport", "gatewayPort"])
        #expect(plain.txt.attributes.text("displayName") == "lab", "OpenClaw falls back to the host name")
        let named = try GatewaySpec.parse(#"host=studio,ip=100.64.0.9,name=Studio\, Inc (OpenClaw),tls=yes,direct=1"#)
        #expect(named.instance.displayName == "Studio, Inc (OpenClaw)")
        #expect(named.txt.attributes.text("displayName") == "Studio, Inc")
        #expect(named.txt.attributes.text("gatewayTls") == "1")
        #expect(named.txt.attributes["gatewayTlsSha256"] == nil)
        #expect(named.txt.attributes.text("gatewayDirectReachable") == "1")
    }

    @Test(
        "bad specs are refused with the reason",
        arguments: [
            "ip=10.0.0.1", "host=x,ip=999.1.1.1", "host=x,port=0", "host=x,tls=abc", "host=x,colour=red", "host=x,novalue", "host=x\\",
            "host=x,name=\(String(repeating: "n", count: 64))",
        ])
    func badSpecs(spec: String) {
        #expect(throws: DNSSDError.self) { try GatewaySpec.parse(spec) }
    }

    @Test("an instance named '@home' is escaped so no reader takes it for the origin")
    func atSign() throws {
        let fine = try GatewaySpec.parse("host=x,ip=10.0.0.1,name=@home")
        let text = try ZoneWriter.render(
            ZoneContent(domain: domain, gateways: [fine], nameServerAddresses: [IPAddress("10.0.0.53")!]), serial: 1
        ).text
        #expect(text.contains(#"\064home._openclaw-gw._tcp"#))
    }

    @Test("a 63-byte name escaped to more than 255 characters is written so ldns can read it")
    func longEscapedOwner() throws {
        let gateway = try GatewaySpec.parse("host=h,ip=10.0.0.1,name=\(String(repeating: "é", count: 31))x")
        let text = try ZoneWriter.render(
            ZoneContent(domain: domain, gateways: [gateway], nameServerAddresses: [IPAddress("10.0.0.53")!]), serial: 1
        ).text
        #expect(text.contains("$ORIGIN _openclaw-gw._tcp.openclaw.internal.\n"))
        #expect(text.hasSuffix("$ORIGIN openclaw.internal.\n"))
        let zone = ZoneFile.read(text: text)
        #expect(zone.problems.isEmpty, "\(zone.problems)")
        let srv = zone.records.first { $0.type == .srv }
        #expect(srv?.name.labels.first == gateway.instance.bytes)
        #expect(srv?.data == .srv(priority: 0, weight: 0, port: 18789, target: try DNSName(presentation: "h.openclaw.internal.")))
    }

    @Test("no name server address is an error with a fix")
    func needsNameServer() throws {
        let content = ZoneContent(domain: domain, gateways: [try studio()], nameServerAddresses: [])
        let error = #expect(throws: ZoneError(.noNameServerAddress)) { try ZoneWriter.render(content, serial: 1) }
        #expect(error?.isUsage == true, "--ns-address is the command line's to give")
    }

    @Test("duplicate names are renamed OpenClaw's way; identical duplicates dropped; host clashes split")
    func duplicates() throws {
        let a = try GatewaySpec.parse("host=box,ip=10.0.0.1,name=Gateway")
        let b = try GatewaySpec.parse("host=box,ip=10.0.0.2,name=gateway,port=18790")
        let content = ZoneContent(domain: domain, gateways: [a, b, a], nameServerAddresses: [IPAddress("10.0.0.53")!])
        let rendered = try ZoneWriter.render(content, serial: 1)
        let records = ZoneFile.read(text: rendered.text).records
        let instances = records.compactMap { record -> String? in
            if case .ptr(let target) = record.data { return String(decoding: target.labels[0], as: UTF8.self) }
            return nil
        }
        #expect(instances.sorted() == ["Gateway", "gateway (2)"])
        #expect(
            rendered.notes == [
                .instanceRenamed(name: "gateway", published: "gateway (2)"),
                .hostRenamed(host: "box", gateway: "gateway (2)", published: "box-2"),
            ], "\(rendered.notes)")
        #expect(records.contains { $0.name.description == "box-2.openclaw.internal." && $0.data == .a(IPAddress("10.0.0.2")!) })
    }

    @Test("sizes: a note above 100 instances, an error when the PTR set cannot fit in a message")
    func sizes() throws {
        let many = try (0..<150).map { try GatewaySpec.parse("host=h\($0),ip=10.0.\($0 / 250).\($0 % 250 + 1)") }
        let rendered = try ZoneWriter.render(
            ZoneContent(domain: domain, gateways: many, nameServerAddresses: [IPAddress("10.0.0.53")!]), serial: 1)
        #expect(rendered.notes == [.bindRecordsPerType(instances: 150)], "\(rendered.notes)")
        let long = try (0..<1000).map {
            try GatewaySpec.parse("host=h\($0),ip=10.2.\($0 / 250).\($0 % 250 + 1),name=Gateway \(String(format: "%05d", $0)) (OpenClaw)")
        }
        let slabNotes = try ZoneWriter.render(
            ZoneContent(
                domain: try DomainName(validating: "shard00.openclaw.internal"), gateways: long,
                nameServerAddresses: [IPAddress("10.0.0.53")!]), serial: 1
        ).notes
        #expect(
            slabNotes.contains {
                guard case .bindSlabTooLarge(1000, let bytes) = $0 else { return false }
                return bytes > ZoneWriter.maxMessageBytes
            }, "\(slabNotes)")
        let huge = try (0..<1200).map {
            try GatewaySpec.parse("host=h\($0),ip=10.1.\($0 / 250).\($0 % 250 + 1),name=\(String(repeating: "x", count: 50))-\($0)")
        }
        let error = #expect(throws: ZoneError.self) {
            try ZoneWriter.render(ZoneContent(domain: domain, gateways: huge, nameServerAddresses: [IPAddress("10.0.0.53")!]), serial: 1)
        }
        guard case .ptrRRsetTooLarge(1200, .gateway, let bytes)? = error?.code else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(bytes > ZoneWriter.maxMessageBytes)
    }

    @Test("no input can inject a line, directive, comment or record (property, read back with ldns)")
    func injection() throws {
        var random = SeededRandom()
        let nasty = Array("$;()\"\\\n\r\t @.,#/`'{}[]<>|~!%^&*+=?ORIGININCLUDE aé🦞\u{0}\u{1B}")
        for round in 0..<300 {
            let name = String((0..<Int.random(in: 1...20, using: &random)).map { _ in nasty.randomElement(using: &random)! })
            let value = String((0..<Int.random(in: 0...40, using: &random)).map { _ in nasty.randomElement(using: &random)! })
            guard let instance = try? InstanceName.truncating(name), instance.bytes != [UInt8(ascii: "@")] else { continue }
            let txt = try TXTRecord(pairs: [
                (key: "displayName", value: value), (key: "role", value: "gateway"), (key: "x\u{7E}y", value: value),
            ])
            let gateway = ZoneGateway(
                instance: instance, hostLabel: "h\(round)", addresses: [IPAddress("10.0.0.1")!], port: 18789, txt: txt)
            let text = try ZoneWriter.render(
                ZoneContent(domain: domain, gateways: [gateway], nameServerAddresses: [IPAddress("10.0.0.53")!]), serial: 7
            ).text
            #expect(
                text.split(separator: "\n").filter { !$0.hasPrefix("$ORIGIN") }.count == 8, "no extra lines in\n\(text)\n\(random.seedNote)"
            )
            let zone = ZoneFile.read(text: text)
            #expect(zone.problems.isEmpty, "\(zone.problems) in\n\(text)\n\(random.seedNote)")
            #expect(zone.records.count == 7, "exactly SOA, NS, two A, PTR, SRV and TXT in\n\(text)\n\(random.seedNote)")
            let txtRecord = zone.records.first { $0.type == .txt }
            guard case .txt(let parsed)? = txtRecord?.data else {
                Issue.record("no TXT")
                continue
            }
            #expect(parsed == txt, "\(random.seedNote)")
            let ptr = zone.records.first { $0.type == .ptr }
            guard case .ptr(let target)? = ptr?.data else {
                Issue.record("no PTR")
                continue
            }
            #expect(target.labels[0] == instance.bytes, "\(random.seedNote)")
        }
    }
}

@Suite("Serials, files, Corefile")
struct ZoneFileTests {
    let today = SerialPolicy.Day(year: 2026, month: 11, day: 22)

    @Test(
        "serials follow YYYYMMDDnn and never go down (RFC 1982)",
        arguments: [
            (nil, 2_026_112_201), (2_026_112_201, 2_026_112_202), (2_026_112_150, 2_026_112_201), (2_026_112_298, 2_026_112_299),
            (2_026_112_299, 2_026_112_300), (2_027_010_101, 2_027_010_102), (5, 2_026_112_201), (4_294_967_295, 2_026_112_201),
            (4_173_595_849, 4_173_595_850),
        ] as [(UInt32?, UInt32)])
    func serials(previous: UInt32?, next: UInt32) {
        #expect(SerialPolicy.next(after: previous, today: today) == next)
        if let previous { #expect(SerialPolicy.isNewer(next, than: previous)) }
    }

    @Test(
        "UTC days from Unix time",
        arguments: [
            (Int64(0), 1970, 1, 1), (1_709_164_800, 2024, 2, 29), (1_795_305_599, 2026, 11, 21), (1_795_305_600, 2026, 11, 22),
            (-86_400, 1969, 12, 31),
        ])
    func days(seconds: Int64, year: Int, month: Int, day: Int) {
        #expect(SerialPolicy.Day(unixSeconds: seconds) == SerialPolicy.Day(year: year, month: month, day: day))
    }

    @Test("writing twice leaves the file untouched; a change bumps the serial; nothing half-written")
    func writesOnlyChanges() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/openclaw.internal.db"
        var content = ZoneContent(domain: domain, gateways: [try studio()], nameServerAddresses: [IPAddress("100.101.102.103")!])
        let first = try ZoneFileUpdate.write(content, to: path, today: today)
        #expect(first.changed && first.serial == 2_026_112_201 && first.previousSerial == nil)
        let before = try FileManager.default.attributesOfItem(atPath: path)
        let second = try ZoneFileUpdate.write(content, to: path, today: SerialPolicy.Day(year: 2026, month: 11, day: 23))
        #expect(!second.changed && second.serial == 2_026_112_201)
        let after = try FileManager.default.attributesOfItem(atPath: path)
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
        #expect(before[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int, "same inode: not rewritten")

        content.gateways.append(try GatewaySpec.parse("host=lab,ip=100.101.102.104"))
        let third = try ZoneFileUpdate.write(content, to: path, today: today)
        #expect(third.changed && third.serial == 2_026_112_202 && third.previousSerial == 2_026_112_201)
        #expect(ZoneFileUpdate.soaSerial(try String(contentsOfFile: path, encoding: .utf8)) == 2_026_112_202)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["openclaw.internal.db"], "no temporary file left")
    }

    @Test("the Corefile stanza as OpenClaw writes it; paths with spaces quoted")
    func corefile() throws {
        let stanza = try CorefileWriter.stanza(
            domain: domain, bind: [IPAddress("100.101.102.103")!, IPAddress("fd7a:115c:a1e0::1")!],
            zonePath: "/etc/coredns/openclaw.internal.db")
        #expect(
            stanza == """
                openclaw.internal:53 {
                  bind 100.101.102.103 fd7a:115c:a1e0::1
                  file /etc/coredns/openclaw.internal.db {
                    reload 10s
                  }
                  errors
                  log
                }

                """)
        #expect(
            try CorefileWriter.stanza(domain: domain, bind: [IPAddress("10.0.0.1")!], zonePath: "/srv/my zones/a.db").contains(
                #"file "/srv/my zones/a.db" {"#))
    }

    @Test("certificate fingerprints from PEM match SHA-256 of the DER")
    func pemFingerprint() {
        // A tiny DER (not a real certificate) is enough: the fingerprint is over the bytes.
        let der: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x05]
        let pem = "-----BEGIN CERTIFICATE-----\n\(Data(der).base64EncodedString())\n-----END CERTIFICATE-----\n"
        // printf '\x30\x03\x02\x01\x05' | sha256sum
        #expect(ThisHost.fingerprint(pem: pem)?.hex == "417c7763c4e320a6b747b3cb0c6d22f93741b29a32b48594b8eb4c144fe6d729")
        #expect(ThisHost.fingerprint(pem: "no certificate") == nil)
    }
}
