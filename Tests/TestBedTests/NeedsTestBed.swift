import TestSupport
import Testing

/// Every suite in this target needs the test bed (scripts/testbed up). Without it, each test
/// fails with the reason before its body runs: never a skip, never a pass.
/// `swift test --skip TestBedTests` runs the tests that need no test bed.
struct NeedsTestBed: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        _ = try TestBed.current()
        try await function()
    }
}

extension Trait where Self == NeedsTestBed {
    /// The suite runs inside the test bed; it fails, loudly, when the test bed is not running.
    static var testBed: Self { NeedsTestBed() }
}
