import CFuzzer
import DNSSD
import FoundationEssentials
import Glibc
import Zones

/// `zone generate --inventory`: a browse JSON document, whatever its shape.
let domain = try! DomainName(validating: "openclaw.internal")

func fuzz(_ bytes: [UInt8]) {
    _ = try? Inventory.gateways(fromJSON: Data(bytes), domain: domain)
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
