// swift-tools-version: 6.0
import PackageDescription

/// libFuzzer targets for the parsers that read what strangers send or write: one executable
/// each, built with `-sanitize=fuzzer,address` (scripts/fuzz), whose main hands its test
/// function to libFuzzer's driver. A package of its own, so the main build never sees those
/// flags.
let parsers = Target.Dependency.product(name: "ClawnetParsers", package: "clawnet")

let package = Package(
    name: "ClawnetFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "clawnet", path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
    ],
    targets: [
        .target(name: "CFuzzer"),
        .executableTarget(name: "FuzzPresentation", dependencies: [parsers, "CFuzzer"]),
        .executableTarget(name: "FuzzTXT", dependencies: [parsers, "CFuzzer"]),
        .executableTarget(name: "FuzzDNSMessage", dependencies: [parsers, "CFuzzer"]),
        .executableTarget(name: "FuzzZoneFile", dependencies: [parsers, "CFuzzer"]),
        .executableTarget(name: "FuzzInventory", dependencies: [parsers, "CFuzzer"]),
        .executableTarget(name: "FuzzOpenClawConfig", dependencies: [parsers, "CFuzzer"]),
        .executableTarget(name: "FuzzServerHello", dependencies: [parsers, "CFuzzer"]),
        .executableTarget(
            name: "FuzzWebSocketFirstFrame",
            dependencies: [
                parsers, "CFuzzer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),
    ]
)
