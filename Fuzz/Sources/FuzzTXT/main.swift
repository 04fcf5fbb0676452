import DNSSD
import FuzzSupport
import Glibc

/// TXT RDATA: whatever decodes encodes back to the same bytes (an empty RDATA is one empty
/// string), and a beacon carrying it reads OpenClaw's keys and says what is wrong, without a trap.
func fuzz(_ bytes: [UInt8]) {
    guard let record = try? TXTRecord(wire: bytes) else { return }
    precondition(record.wire == (bytes.isEmpty ? [0] : bytes), "TXT RDATA does not round-trip")
    _ = GatewayInfo.decode(record.attributes)
    let beacon = GatewayBeacon(
        instance: try! InstanceName(bytes: Array("Fuzz".utf8)), serviceType: .gateway, domain: .local, source: .mdns,
        host: "fuzz.local.", port: 18789, addresses: [], txt: record)
    _ = (beacon.warnings, beacon.url, beacon.gateway)
}

runFuzzer(fuzz)
