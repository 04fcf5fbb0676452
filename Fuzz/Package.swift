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
        .target(name: "FuzzSupport", dependencies: ["CFuzzer"]),
        .executableTarget(name: "FuzzPresentation", dependencies: [parsers, "FuzzSupport"]),
        .executableTarget(name: "FuzzTXT", dependencies: [parsers, "FuzzSupport"]),
        .executableTarget(name: "FuzzDNSMessage", dependencies: [parsers, "FuzzSupport"]),
        .executableTarget(name: "FuzzZoneFile", dependencies: [parsers, "FuzzSupport"]),
        .executableTarget(name: "FuzzInventory", dependencies: [parsers, "FuzzSupport"]),
        .executableTarget(name: "FuzzOpenClawConfig", dependencies: [parsers, "FuzzSupport"]),
        .executableTarget(name: "FuzzServerHello", dependencies: [parsers, "FuzzSupport"]),
        .executableTarget(
            name: "FuzzWebSocketFirstFrame",
            dependencies: [
                parsers, "FuzzSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),
    ]
)
