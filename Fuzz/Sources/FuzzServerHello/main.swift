import CFuzzer
import Glibc
import Probes

/// The first bytes a TLS server sends, read for its ServerHello; every prefix too, as the
/// bytes arrive in pieces.
func fuzz(_ bytes: [UInt8]) {
    let whole = ServerHello.parse(bytes)
    if case .hello(let hello) = whole {
        _ = (hello.protocolVersion.description, hello.cipherName)
    }
    for end in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 8)) {
        _ = ServerHello.parse(Array(bytes[..<end]))
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
