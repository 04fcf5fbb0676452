// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "clawnet",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "clawnet", targets: ["clawnet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.3.0"),
    ],
    targets: [
        // C libraries at the bottom; only the backends that need them import them.
        .systemLibrary(name: "CAvahi", path: "Sources/CAvahi", providers: [.apt(["libavahi-client-dev"])]),
        .systemLibrary(name: "CLDNS", path: "Sources/CLDNS", providers: [.apt(["libldns-dev"])]),

        // Pure DNS-SD and OpenClaw value types, no I/O.
        .target(name: "DNSSD"),

        // DNS messages and zone files through ldns, as Swift values.
        .target(name: "DNSWire", dependencies: ["DNSSD", "CLDNS"]),

        // Backends (Avahi, unicast DNS-SD, manual) and the merging session.
        .target(
            name: "Discovery",
            dependencies: [
                "DNSSD", "DNSWire", "CAvahi",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Probes of a Gateway on SwiftNIO: TCP, TLS (leaf fingerprint, certificate facts),
        // HTTP health, the WebSocket opening; and a stand-in Gateway that answers like one.
        .target(
            name: "Probes",
            dependencies: [
                "DNSSD", "Discovery",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),

        // Wide-area zones: writing (OpenClaw's layout), serials, atomic files, CoreDNS stanzas, linting.
        .target(
            name: "Zones",
            dependencies: [
                "DNSSD", "DNSWire", "Discovery",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // Checks of the machine and of each Gateway, and the diagnosis that combines them.
        .target(name: "Doctor", dependencies: ["DNSSD", "Discovery", "Probes"]),

        .executableTarget(
            name: "clawnet",
            dependencies: [
                "DNSSD", "Discovery", "Zones", "Probes", "Doctor",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["BuildInfo"]
        ),

        // Writes BuildInfo.swift (the git commit of the source) before every build, for --version.
        .plugin(name: "BuildInfo", capability: .buildTool()),

        // Helpers for tests: running processes, the test bed, real DNS servers.
        .target(name: "TestSupport", dependencies: ["DNSSD"], path: "Tests/TestSupport"),

        .testTarget(name: "DNSSDTests", dependencies: ["DNSSD"]),
        .testTarget(name: "DNSWireTests", dependencies: ["DNSWire", "DNSSD"]),
        .testTarget(name: "DiscoveryTests", dependencies: ["Discovery", "DNSSD", "TestSupport"]),
        .testTarget(name: "DoctorTests", dependencies: ["Doctor", "Probes", "Discovery", "DNSSD", "TestSupport"]),
        .testTarget(name: "ProbesTests", dependencies: ["Probes", "DNSSD", "TestSupport"]),
        .testTarget(name: "ZonesTests", dependencies: ["Zones", "DNSSD", "DNSWire", "TestSupport"]),
        .testTarget(name: "ClawnetTests", dependencies: ["clawnet", "DNSSD", "TestSupport"]),
    ]
)
