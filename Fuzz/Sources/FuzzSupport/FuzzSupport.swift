import CFuzzer
import Glibc

/// The one libFuzzer driver every target shares: a target's main hands its test function to
/// `runFuzzer`, which gives it to libFuzzer's entry point and runs libFuzzer's own driver.
nonisolated(unsafe) private var target: ([UInt8]) -> Void = { _ in }

/// libFuzzer's entry point (also for libFuzzer's own main, when that is linked).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    target(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Runs libFuzzer on `fuzz` with the process's arguments, and exits with its status.
public func runFuzzer(_ fuzz: @escaping ([UInt8]) -> Void) -> Never {
    target = fuzz
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) })
}
