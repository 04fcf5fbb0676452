import Avahi
import DNSSD
import Foundation
import TestSupport
import Testing

@testable import Discovery

/// A full TXT as a current OpenClaw Gateway in full mode advertises it (the interop notes).
let fingerprint = String(repeating: "5a", count: 32)
let openClawTXT = [
    "role=gateway", "gatewayPort=18789", "lanHost=gw.local", "displayName=Studio", "transport=gateway",
    "gatewayTls=1", "gatewayTlsSha256=\(fingerprint)", "gatewayDirectReachable=1", "canvasPort=18793",
    "tailnetDns=studio.tail1234.ts.net", "sshPort=22", "cliPath=/usr/local/bin/openclaw",
]

/// Instance names that break naive tools: spaces, dots, parentheses, quotes, backslashes,
/// non-ASCII, emoji, and exactly 63 bytes.
func trickyNames(_ tag: String) -> [String] {
    let long = "Long " + tag + " "
    let padded = long + String(repeating: "é", count: (63 - long.utf8.count) / 2)
    return [
        "Studio (OpenClaw) \(tag)",
        "Dots.In.Name v2.0 \(tag)",
        "Café Zürich \(tag)",
        "🦞 Lobster Lab \(tag)",
        #"Quote "q" \ back \#(tag)"#,
        padded + String(repeating: "x", count: 63 - padded.utf8.count),
    ]
}

/// Browses local. through the node's avahi-daemon (this process runs inside the node
/// namespace with its D-Bus) until `done` holds for the collected beacons.
func browseUntil(
    timeout: Duration = .seconds(20), types: [ServiceType] = [.gateway],
    _ done: (BeaconCollection) -> Bool
) async throws -> BeaconCollection {
    let bed = try TestBed.current()
    let bus = ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"]
    try #require(bus == bed.bus(.node), "in-process tests run inside the node namespace with its D-Bus: use scripts/test")
    var collection = BeaconCollection()
    for await tick in MulticastBackend().browse(types: types, watch: true).until(timeout) {
        guard case .element(let event) = tick else { break }
        collection.apply(event)
        if done(collection) { return collection }
    }
    Issue.record(
        "browse did not reach the expected state within \(timeout); have: \(collection.beacons.map(\.instance.displayName)), errors: \(collection.errors)"
    )
    return collection
}

@Suite("Multicast browsing against real avahi-daemons", .testBed)
struct MulticastBrowseTests {
    func checkFields(_ beacon: GatewayBeacon, host: String) {
        #expect(beacon.host?.text == host)
        #expect(beacon.port == 18789)
        #expect(beacon.addresses.contains(IPAddress("10.99.0.1")!))
        #expect(beacon.interfaces == ["eth0"])
        #expect(beacon.sources == [.mdns])
        #expect(beacon.domain == .local)
        #expect(beacon.serviceType == .gateway)
        let attributes = beacon.attributes
        for entry in openClawTXT {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            #expect(attributes.text(parts[0]) == parts[1], "TXT \(parts[0])")
        }
        let gateway = beacon.gateway
        #expect(gateway.tls && gateway.directReachable)
        #expect(gateway.tlsSha256?.hex == fingerprint)
        #expect(gateway.gatewayPort == 18789 && gateway.canvasPort == 18793 && gateway.sshPort == 22)
        #expect(gateway.tailnetDns == "studio.tail1234.ts.net")
        #expect(gateway.cliPath == "/usr/local/bin/openclaw")
        #expect(beacon.url == "wss://\(host.dropLast()):18789", "the SRV target without its trailing dot, as OpenClaw builds URLs")
        #expect(beacon.warnings.isEmpty, "\(beacon.warnings)")
    }

    @Test("tricky names published by avahi-publish arrive decoded, field by field")
    func avahiPublishTrickyNames() async throws {
        let bed = try TestBed.current()
        let names = trickyNames(uniqueTag())
        var publishers: [ChildProcess] = []
        for name in names { publishers.append(try await bed.avahiPublish(name: name, txt: openClawTXT)) }
        defer { for publisher in publishers { publisher.terminate() } }

        let found = try await browseUntil { collection in
            names.allSatisfy { name in collection.beacons.contains { $0.instance.displayName == name && $0.addresses.count >= 2 } }
        }
        for name in names {
            let beacon = try #require(found.beacons.first { $0.instance.displayName == name })
            #expect(beacon.instance.bytes == Array(name.utf8))
            checkFields(beacon, host: "gw.local.")
            #expect(beacon.addresses.contains(IPAddress("fd99::1")!), "IPv6 resolved on its own")
        }
        #expect(names.last!.utf8.count == 63)
    }

    @Test("tricky names published by python-zeroconf (an independent mDNS stack)")
    func zeroconfTrickyNames() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        // python-zeroconf writes a dot in an instance name as a label separator, so nobody
        // could browse such a name from it; avahi-publish covers dotted names above.
        let names = trickyNames(tag).filter { !$0.contains(".") }
        var publishers: [ChildProcess] = []
        for (index, name) in names.enumerated() {
            publishers.append(try await bed.zeroconfPublish(name: name, hostLabel: "zc-\(tag)-\(index)", txt: openClawTXT))
        }
        defer { for publisher in publishers { publisher.terminate() } }

        let found = try await browseUntil { collection in
            names.allSatisfy { name in collection.beacons.contains { $0.instance.displayName == name } }
        }
        for (index, name) in names.enumerated() {
            let beacon = try #require(found.beacons.first { $0.instance.displayName == name })
            checkFields(beacon, host: "zc-\(tag)-\(index).local.")
        }
    }

    @Test("a goodbye from avahi-publish becomes removed")
    func avahiGoodbye() async throws {
        let bed = try TestBed.current()
        let name = "Goodbye \(uniqueTag())"
        let publisher = try await bed.avahiPublish(name: name, txt: ["role=gateway"])
        var sawAdded = false
        var collection = BeaconCollection()
        for await tick in MulticastBackend().browse(types: [.gateway], watch: true).until(.seconds(20)) {
            guard case .element(let event) = tick else { break }
            collection.apply(event)
            switch event {
            case .added(let beacon) where beacon.instance.displayName == name:
                sawAdded = true
                try await publisher.stop()
            case .removed(let beacon) where beacon.instance.displayName == name:
                #expect(sawAdded)
                return
            default:
                break
            }
        }
        Issue.record("no removed event for \(name); added: \(sawAdded)")
    }

    @Test("a goodbye from python-zeroconf becomes removed")
    func zeroconfGoodbye() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let name = "ZC Goodbye \(tag)"
        let publisher = try await bed.zeroconfPublish(name: name, hostLabel: "zcbye-\(tag)", txt: ["role=gateway"])
        var sawAdded = false
        for await tick in MulticastBackend().browse(types: [.gateway], watch: true).until(.seconds(20)) {
            guard case .element(let event) = tick else { break }
            if case .added(let beacon) = event, beacon.instance.displayName == name {
                sawAdded = true
                publisher.closeStdin()
                try await publisher.waitForOutput("unregistered")
            }
            if case .removed(let beacon) = event, beacon.instance.displayName == name {
                #expect(sawAdded)
                return
            }
        }
        Issue.record("no removed event for \(name)")
    }

    @Test("a static service file whose TXT changes gives an update; deleting it removes")
    func staticServiceUpdates() async throws {
        let bed = try TestBed.current()
        let name = "Static \(uniqueTag())"
        let path = try await bed.staticService(name: name, txt: ["role=gateway", "gatewayPort=18789"])
        var phase = 0
        var seen: [String] = []
        for await tick in MulticastBackend().browse(types: [.gateway], watch: true).until(.seconds(25)) {
            guard case .element(let event) = tick else { break }
            switch event {
            case .added(let b), .updated(let b), .removed(let b):
                if b.instance.displayName == name { seen.append("\(event)".prefix(12) + " tls=\(b.gateway.tls) \(b.addresses)") }
            default: break
            }
            switch (phase, event) {
            case (0, .added(let beacon)) where beacon.instance.displayName == name:
                #expect(!beacon.gateway.tls)
                phase = 1
                try String(contentsOfFile: path, encoding: .utf8)
                    .replacingOccurrences(
                        of: "<txt-record>gatewayPort=18789</txt-record>",
                        with: "<txt-record>gatewayPort=18789</txt-record><txt-record>gatewayTls=1</txt-record>"
                    )
                    .write(toFile: path, atomically: true, encoding: .utf8)
                // avahi-daemon reloads a static service only when its mtime (whole seconds) changed
                // (avahi-daemon/static-services.c): a rewrite within the second it was made goes unseen.
                try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(2)], ofItemAtPath: path)
                try await bed.control("avahi", "reload", "gw")
            case (1, .updated(let beacon)) where beacon.instance.displayName == name && beacon.gateway.tls:
                phase = 2
                try FileManager.default.removeItem(atPath: path)
                try await bed.control("avahi", "reload", "gw")
            case (2, .removed(let beacon)) where beacon.instance.displayName == name:
                return
            default:
                break
            }
        }
        Issue.record("static service went only to phase \(phase): \(seen)")
    }

    @Test("a non-watch browse ends with allForNow and holds what was published")
    func completesWithAllForNow() async throws {
        let bed = try TestBed.current()
        let name = "Complete \(uniqueTag())"
        let publisher = try await bed.avahiPublish(name: name, txt: ["role=gateway"])
        defer { publisher.terminate() }
        // Warm the node's cache first, as a user's second browse would.
        _ = try await browseUntil { $0.beacons.contains { $0.instance.displayName == name } }
        var collection = BeaconCollection()
        var events: [DiscoveryEvent] = []
        for await tick in MulticastBackend().browse(types: [.gateway], watch: false).until(.seconds(10)) {
            guard case .element(let event) = tick else { break }
            collection.apply(event)
            events.append(event)
        }
        #expect(events.last == .allForNow)
        #expect(collection.beacons.contains { $0.instance.displayName == name })
    }
}
