import CFuzzer
import DNSSD
import DNSWire
import Glibc
import Zones

/// Zone files as `zone check` reads them: ldns's reader, then the DNS-SD linter.
func fuzz(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let zone = ZoneFile.read(text: text, defaultTTL: 60)
    _ = ZoneLinter.check(zone, domain: nil, today: UTCDay(year: 2025, month: 1, day: 1))
}

/// libFuzzer's entry point, for the driver below (and for its own main, when linked).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) })
