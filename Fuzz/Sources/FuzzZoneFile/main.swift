import DNSSD
import DNSWire
import FuzzSupport
import Glibc
import Zones

/// Zone files as `zone check` reads them: ldns's reader, then the DNS-SD linter.
func fuzz(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let zone = ZoneFile.read(text: text, defaultTTL: 60)
    _ = ZoneLinter.check(zone, domain: nil, today: UTCDay(year: 2025, month: 1, day: 1))
}

runFuzzer(fuzz)
