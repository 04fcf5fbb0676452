import Foundation

/// Randomness a failing test can replay: a SplitMix64 generator whose seed comes from
/// CLAWNET_TEST_SEED when set, else is drawn fresh. Put `random.seedNote` in every
/// expectation's message, so a failure prints the seed that reproduces it:
/// `CLAWNET_TEST_SEED=<seed> swift test --filter ...`.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    package let seed: UInt64
    private var state: UInt64

    package init(seed: UInt64? = nil) {
        let chosen =
            seed ?? ProcessInfo.processInfo.environment["CLAWNET_TEST_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: .min ... .max)
        self.seed = chosen
        self.state = chosen &+ 0x9E37_79B9_7F4A_7C15
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// For failure messages: how to run this case again.
    package var seedNote: String { "seed \(seed) (rerun with CLAWNET_TEST_SEED=\(seed))" }

    /// Random bytes, `count` of them.
    package mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }
}
