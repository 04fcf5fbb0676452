import CFuzzer
import DNSWire
import Glibc

/// DNS messages as a server might send them, through the ldns wrapper into Swift values.
func fuzz(_ bytes: [UInt8]) {
    guard let message = try? DNSWireCodec.decode(bytes) else { return }
    for record in message.answers + message.authority + message.additional {
        _ = record.description
    }
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
