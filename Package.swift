// swift-tools-version: 6.0
import PackageDescription

/// Every target builds in the Swift 6 language mode (the tools version above) with
/// MemberImportVisibility: a file sees the members of a module (its extensions too) only when
/// it imports that module itself, never through another file's import. Which modules a target
/// may import is its `dependencies` below; scripts/test builds with
/// `--explicit-target-dependency-import-check error`, so an import a target does not declare
/// fails there and the layers stay where they are.
let settings: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")

let package = Package(
    name: "clawnet",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "clawnet", targets: ["clawnet"]),
        // The parsers that read outside input, for the libFuzzer targets in Fuzz/ (a package of
        // its own, so that this build stays free of sanitizers).
        .library(name: "ClawnetParsers", targets: ["DNSSD", "DNSWire", "Host", "Zones", "Probes"]),
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
        // C libraries at the bottom; only Avahi imports CAvahi, only DNSWire imports CLDNS, only
        // Archive imports CZlib.
        .systemLibrary(name: "CAvahi", path: "Sources/CAvahi", providers: [.apt(["libavahi-client-dev"])]),
        .systemLibrary(name: "CLDNS", path: "Sources/CLDNS", providers: [.apt(["libldns-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),

        // Pure DNS-SD and OpenClaw value types, no I/O: names, TXT, beacons, events, servers.
        .target(name: "DNSSD", swiftSettings: settings),

        // DNS messages and zone files through ldns, as Swift values.
        .target(name: "DNSWire", dependencies: ["DNSSD", "CLDNS"], swiftSettings: settings),

        // Conversions between clawnet's values and SwiftNIO's (socket addresses, time amounts).
        .target(name: "NIOSupport", dependencies: ["DNSSD", "Host", nioCore], swiftSettings: settings),

        // A stub resolver on SwiftNIO: UDP with EDNS0, TCP on truncation, servers in order.
        .target(
            name: "DNSClient",
            dependencies: [
                "DNSSD", "DNSWire", "NIOSupport", nioCore, nioPosix,
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings
        ),

        // Registering records in the DNS servers operators run: RFC 2136 UPDATE with
        // prerequisites, TSIG (RFC 8945), AXFR (and an RRset fallback), change sets.
        .target(
            name: "DNSUpdate",
            dependencies: [
                "DNSSD", "DNSWire", "DNSClient", "NIOSupport", crypto, nioCore, nioPosix,
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings
        ),

        // Facts of this machine: resolv.conf, interfaces, the OpenClaw config, the system bus,
        // host names and their lookup; files read and written safely (AtomicFile); work run
        // within bounds (BlockingThreads, concurrentMap).
        .target(name: "Host", dependencies: ["DNSSD"], swiftSettings: settings),

        // libavahi-client: browse and resolve, publish, daemon status, mDNS address lookups.
        .target(name: "Avahi", dependencies: ["DNSSD", "Host", "CAvahi"], swiftSettings: settings),

        // The discovery session: mDNS, unicast DNS-SD and manual targets merged into one view;
        // Discovering is how commands ask for it (live, or recorded events in tests).
        .target(name: "Discovery", dependencies: ["DNSSD", "DNSWire", "DNSClient", "Host", "Avahi"], swiftSettings: settings),

        // Probes of a Gateway on SwiftNIO: TCP, TLS (leaf fingerprint, certificate facts),
        // HTTP health, the WebSocket opening; and a stand-in Gateway that answers like one
        // (with its TLS identity kept in a folder, StandInIdentityStore).
        .target(
            name: "Probes",
            dependencies: [
                "DNSSD", "Host", "NIOSupport", nioCore, nioPosix, crypto,
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings
        ),

        // Wide-area zones: the Gateways to publish and where they come from (GatewayCollector:
        // specs, inventories, a browse through Discovery, this host), writing (OpenClaw's
        // layout), serials, CoreDNS stanzas, linting, the live comparison, and the one
        // Registrar that puts Gateways into a served zone (zone push, advertise --wide-area);
        // Probes checks that browsed Gateways answer before they are published.
        .target(
            name: "Zones", dependencies: ["DNSSD", "DNSWire", "DNSClient", "DNSUpdate", "Host", "Discovery", "Probes", crypto],
            swiftSettings: settings),

        // Checks of the machine and of each Gateway, the diagnosis rules, zone snippets, preflight.
        .target(
            name: "Doctor", dependencies: ["DNSSD", "DNSWire", "DNSClient", "Host", "Avahi", "Discovery", "Probes", "Zones"],
            swiftSettings: settings),

        // Watching Gateways over time: each probed on an interval (Probes) as discovery finds it
        // (Discovery), judged by doctor's rules (Doctor), its state kept by a pure state machine
        // that turns probes into events; metrics and service discovery for Prometheus.
        .target(
            name: "Watch",
            dependencies: [
                "DNSSD", "Host", "Discovery", "Probes", "Doctor", "NIOSupport", nioCore, nioPosix,
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: settings),

        // ustar and gzip through zlib (the only importer of CZlib).
        .target(name: "Archive", dependencies: ["CZlib"], swiftSettings: settings),

        // `clawnet report`: what it gathers (the config read as OpenClaw reads it, the env file,
        // the Gateway's log and journal, OpenClaw's own diagnostics), the secrets found there, and
        // the archive with every file scrubbed of them and its manifest.
        .target(name: "Report", dependencies: ["Host", "DNSSD", "Archive"], swiftSettings: settings),

        // Every report and line clawnet prints, as a table and as JSON, the Terminal they go
        // through, and the exit codes they (and the errors that stop a command) mean; the words of
        // doctor's checks and causes, written from their typed evidence.
        .target(
            name: "Output",
            dependencies: ["DNSSD", "DNSWire", "DNSUpdate", "Host", "Avahi", "Discovery", "Probes", "Doctor", "Zones", "Watch", "Report"],
            swiftSettings: settings),

        // The command line: each command parses its flags (shared ones declared once, in
        // option groups), makes one library call with the CommandContext the entry point
        // builds, and renders through Output.
        .target(
            name: "Commands",
            dependencies: [
                "DNSSD", "DNSWire", "DNSClient", "DNSUpdate", "Host", "Avahi", "Discovery", "Zones", "Probes", "Doctor", "Watch", "Archive",
                "Output", "Report",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings,
            plugins: ["BuildInfo"]
        ),

        // The binary: it calls `Clawnet.main()` and nothing else.
        .executableTarget(name: "clawnet", dependencies: ["Commands"], swiftSettings: settings),

        // Writes BuildInfo.swift (the git commit of the source) before every build, for --version.
        .plugin(name: "BuildInfo", capability: .buildTool()),

        // Helpers for tests: running processes, the test bed, real DNS servers, seeded randomness.
        .target(name: "TestSupport", dependencies: ["DNSSD"], path: "Tests/TestSupport", swiftSettings: settings),

        .testTarget(name: "DNSSDTests", dependencies: ["DNSSD", "TestSupport"], swiftSettings: settings),
        .testTarget(name: "DNSWireTests", dependencies: ["DNSWire", "DNSSD", "TestSupport"], swiftSettings: settings),
        .testTarget(
            name: "DNSClientTests",
            dependencies: [
                "DNSClient", "DNSWire", "DNSSD", "NIOSupport", "TestSupport", nioCore, .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: settings
        ),
        .testTarget(name: "HostTests", dependencies: ["Host", "DNSSD", "TestSupport"], swiftSettings: settings),
        .testTarget(name: "ReportTests", dependencies: ["Report", "Archive", "Host", "DNSSD", "TestSupport"], swiftSettings: settings),
        .testTarget(name: "AvahiTests", dependencies: ["Avahi", "DNSSD", "TestSupport"], swiftSettings: settings),
        .testTarget(
            name: "DiscoveryTests",
            dependencies: ["Discovery", "DNSClient", "DNSWire", "DNSSD", "Host", "Avahi", "TestSupport"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "ProbesTests",
            dependencies: [
                "Probes", "DNSSD", "NIOSupport", "TestSupport", nioCore,
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                crypto,
            ],
            swiftSettings: settings
        ),
        .testTarget(
            name: "DNSUpdateTests", dependencies: ["DNSUpdate", "DNSClient", "DNSWire", "DNSSD", "TestSupport"], swiftSettings: settings),
        .testTarget(
            name: "ZonesTests", dependencies: ["Zones", "DNSSD", "DNSWire", "Host", "TestSupport"], exclude: ["Fixtures"],
            swiftSettings: settings),
        .testTarget(
            name: "DoctorTests", dependencies: ["Doctor", "Output", "Probes", "Discovery", "Host", "Avahi", "DNSSD", "TestSupport"],
            exclude: ["Golden"], swiftSettings: settings),
        .testTarget(
            name: "WatchTests",
            dependencies: [
                "Watch", "Doctor", "Probes", "Discovery", "DNSSD", "Avahi", "Host", "TestSupport", nioCore,
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ], swiftSettings: settings),
        .testTarget(
            name: "OutputTests",
            dependencies: [
                "Output", "Doctor", "Discovery", "Zones", "Probes", "Host", "Avahi", "DNSSD", "DNSWire", "DNSUpdate", "TestSupport",
            ],
            exclude: ["Golden"], swiftSettings: settings),
        // Runs a command in-process with a recorded context (for ClawnetTests and TestBedTests).
        .target(
            name: "CommandTestSupport",
            dependencies: [
                "Commands", "DNSSD", "Discovery", "Doctor", "Output", "Host", "Avahi", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Tests/CommandTestSupport", swiftSettings: settings),

        .testTarget(
            name: "ClawnetTests",
            dependencies: [
                "Commands", "CommandTestSupport", "DNSSD", "Discovery", "Doctor", "Output", "Probes", "Watch", "Zones", "Host", "Avahi", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
            ], exclude: ["Golden"], swiftSettings: settings),

        // Every suite that needs the test bed (scripts/testbed: namespaces, avahi-daemon, DNS
        // servers, proxies), by the area it tests; `swift test --skip TestBedTests` runs the rest.
        .testTarget(
            name: "TestBedTests",
            dependencies: [
                "Commands", "CommandTestSupport", "DNSSD", "DNSWire", "DNSClient", "DNSUpdate", "Host", "Avahi", "Discovery", "Probes", "Zones", "Doctor",
                "Output", "Report", "TestSupport", nioCore, nioPosix, .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], swiftSettings: settings),
    ]
)
