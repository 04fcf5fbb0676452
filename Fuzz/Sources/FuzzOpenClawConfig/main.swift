import CFuzzer
import FoundationEssentials
import Glibc
import Host

/// `~/.openclaw/openclaw.json` (JSON5): any bytes give a config, with warnings, never a trap.
func fuzz(_ bytes: [UInt8]) {
    let config = OpenClawConfig.parse(Data(bytes), path: "openclaw.json")
    precondition(config.exists)
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
