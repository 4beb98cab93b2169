// swift-tools-version:6.1
import PackageDescription

/// Settings every target of ours shares: Swift 6 mode plus upcoming features that make code say what it means:
/// `any` on existentials, only declared imports' members visible, imports internal unless marked public.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// swift-nio's products named (each target declares exactly the ones it imports: .ci/check-imports).
func nio(_ names: String...) -> [Target.Dependency] {
    names.map { .product(name: $0, package: "swift-nio") }
}

/// NIO, TLS and WebSocket products: the targets that use all of them (GoalServer, GoalTransport, the test support).
let nioProducts: [Target.Dependency] =
    nio("NIOCore", "NIOPosix", "NIOHTTP1", "NIOWebSocket", "NIOConcurrencyHelpers") + [
        .product(name: "NIOSSL", package: "swift-nio-ssl")
    ]

let package = Package(
    name: "goald",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GoalModel", targets: ["GoalModel"]),
        .library(name: "GoalWire", targets: ["GoalWire"]),
        .library(name: "GoalReactive", targets: ["GoalReactive"]),
        .library(name: "GoalStore", targets: ["GoalStore"]),
        .library(name: "GoalPostgres", targets: ["GoalPostgres"]),
        .library(name: "GoalServer", targets: ["GoalServer"]),
        .library(name: "GoalClient", targets: ["GoalClient"]),
        .library(name: "GoalClientSQLite", targets: ["GoalClientSQLite"]),
        .library(name: "GoalTransport", targets: ["GoalTransport"]),
        .library(name: "GoalViewModels", targets: ["GoalViewModels"]),
        .executable(name: "goald", targets: ["goald"]),
        .executable(name: "goal-client", targets: ["goal-client"]),
        .executable(name: "goal-load", targets: ["goal-load"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: [.defaults, "YAML"]),
        // Latency histograms for goal-load only (load-test dependencies stay out of the core graph).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Already resolved through swift-configuration's YAML trait; named here so GoalServerTests can read
        // docs/openapi.yaml (the drift test). No product of ours links it.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // The package's lock for shared state off the event loops: one the thread sanitizer sees (LockedValue.swift).
        .target(name: "GoalLocking", swiftSettings: strictSettings),
        // Pure domain: no IO, no async, no encoding (GoalWire owns the wire). Imports point down only
        // (docs/ARCHITECTURE.md "Modules and their imports").
        .target(
            name: "GoalModel",
            dependencies: [.product(name: "HashTreeCollections", package: "swift-collections")],
            swiftSettings: strictSettings
        ),
        // Wire messages and the JSON codec; no sockets, no TLS.
        .target(
            name: "GoalWire",
            dependencies: ["GoalModel", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        // ReactiveSwift-compatible core; depends on nothing of ours.
        .target(name: "GoalReactive", swiftSettings: strictSettings),
        // Persistence: the store protocol, an in-memory store and the SQLite store (GRDB). GoalWire because it owns
        // every encoding of model values: the exactly-once records are stored in its JSON form (ClientResultsCoding).
        .target(
            name: "GoalStore",
            dependencies: [
                "GoalLocking",
                "GoalModel", "GoalWire", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: strictSettings
        ),
        // The PostgreSQL store (postgres-nio) behind GoalStore's LeagueStorage: its own module so that nothing else
        // links postgres-nio (goald and the store tests do).
        .target(
            name: "GoalPostgres",
            dependencies: [
                "GoalLocking", "GoalModel", "GoalWire", "GoalStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ] + nio("NIOCore", "NIOPosix", "NIOConcurrencyHelpers"),
            swiftSettings: strictSettings
        ),
        // RFC 7692 permessage-deflate for both ends of the stream: negotiation, one-message deflate and inflate
        // (compress-nio's zlib), and the inflating channel handler.
        .target(
            name: "GoalDeflate",
            dependencies: [
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The daemon as a library: NIO + TLS + WebSocket, sessions, engine, writer, hub, auth, limits, metrics.
        .target(
            name: "GoalServer",
            dependencies: [
                "GoalLocking",
                "GoalModel", "GoalWire", "GoalStore", "GoalDeflate",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ] + nioProducts,
            swiftSettings: strictSettings
        ),
        // The client library: replica, outbox, reconnect state machine, LeagueStore and Transport protocols. No NIO.
        .target(
            name: "GoalClient",
            dependencies: [
                "GoalLocking",
                "GoalModel", "GoalWire", "GoalReactive",
                .product(name: "HashTreeCollections", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // GoalClient's ClientStateStore in SQLite (GRDB): instance slots, outbox and replica across processes. Its own
        // module so that GoalClient (and the view models) never link GRDB.
        .target(
            name: "GoalClientSQLite",
            dependencies: [
                "GoalLocking", "GoalClient", "GoalModel", "GoalWire", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        // The live NIO + TLS WebSocket implementation of GoalClient's Transport.
        .target(
            name: "GoalTransport",
            dependencies: [
                "GoalClient", "GoalModel", "GoalWire", "GoalDeflate",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ] + nioProducts,
            swiftSettings: strictSettings
        ),
        // SwiftGoal's view models over GoalClient's LeagueStore. No NIO.
        .target(
            name: "GoalViewModels",
            dependencies: ["GoalModel", "GoalWire", "GoalReactive", "GoalClient"],
            swiftSettings: strictSettings
        ),
        // Used by tests only: in-process daemons on port 0, test certificates, raw WebSocket clients.
        .target(
            name: "GoalTestSupport",
            dependencies: [
                "GoalLocking", "GoalModel", "GoalWire", "GoalStore", "GoalServer", "GoalTransport", "GoalClient",
                "GoalReactive",
                "GoalPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ] + nioProducts,
            swiftSettings: strictSettings
        ),
        // Used by every test target only: bounds how many test cases `swift test` runs at once (TestSlots.swift).
        .target(
            name: "GoalTestSlots",
            swiftSettings: strictSettings
        ),
        // What the three command-line tools share: line output that ends quietly on a closed pipe, and their `main`.
        .target(
            name: "GoalCommandLine",
            dependencies: ["GoalLocking", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
        // The daemon executable: flags, environment and config file → ServerConfiguration → GoalServer.
        .executableTarget(
            name: "goald",
            dependencies: [
                "GoalLocking",
                "GoalServer", "GoalStore", "GoalModel", "GoalWire", "GoalPostgres", "GoalCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // Optimized like everything else. (Swift 6.3.1's optimizer crashed splitting async commands that had the
            // typed-throws configuration loader inlined; `CommandContext.configuration` is `@inline(never)` for it.)
            swiftSettings: strictSettings
        ),
        // The terminal client: full-screen UI, scripting subcommands and `tail`.
        .executableTarget(
            name: "goal-client",
            dependencies: [
                "GoalLocking",
                "GoalClient", "GoalClientSQLite", "GoalTransport", "GoalViewModels", "GoalReactive", "GoalModel",
                "GoalWire", "GoalCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The load tester: S subscribers and W writers against a live goald, latency histograms, convergence proof.
        .executableTarget(
            name: "goal-load",
            dependencies: [
                "GoalLocking",
                "GoalTransport", "GoalClient", "GoalWire", "GoalModel", "GoalCommandLine", "GoalReactive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ] + nio("NIOCore", "NIOPosix"),
            swiftSettings: strictSettings
        ),

        .testTarget(
            name: "GoalModelTests",
            dependencies: ["GoalTestSlots", "GoalModel", "GoalWire"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalWireTests",
            dependencies: [
                "GoalTestSlots", "GoalWire", "GoalModel", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalDeflateTests",
            dependencies: [
                "GoalTestSlots",
                "GoalDeflate",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalReactiveTests",
            dependencies: ["GoalTestSlots", "GoalReactive"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalStoreTests",
            dependencies: [
                "GoalTestSlots",
                "GoalStore", "GoalModel", "GoalWire", "GoalPostgres", "GoalTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ] + nio("NIOConcurrencyHelpers"),
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalServerTests",
            dependencies: [
                "GoalTestSlots", "GoalLocking",
                "GoalServer", "GoalTestSupport", "GoalStore", "GoalWire", "GoalModel", "GoalPostgres", "GoalDeflate",
                "GoalTransport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
            ] + nio("NIOCore", "NIOPosix", "NIOHTTP1", "NIOWebSocket", "NIOConcurrencyHelpers", "NIOEmbedded"),
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalClientTests",
            dependencies: ["GoalTestSlots", "GoalClient", "GoalWire", "GoalModel", "GoalReactive", "GoalTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalViewModelsTests",
            dependencies: [
                "GoalTestSlots", "GoalViewModels", "GoalClient", "GoalWire", "GoalModel", "GoalReactive",
                "GoalTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalTransportTests",
            dependencies: [
                "GoalTestSlots", "GoalTransport", "GoalTestSupport", "GoalClient", "GoalDeflate", "GoalModel",
                "GoalWire",
            ]
                + nio("NIOCore", "NIOPosix", "NIOHTTP1", "NIOWebSocket")
                + [.product(name: "NIOSSL", package: "swift-nio-ssl")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalClientLiveTests",
            dependencies: [
                "GoalTestSlots",
                "GoalClient", "GoalClientSQLite", "GoalTransport", "GoalViewModels", "GoalReactive", "GoalModel",
                "GoalWire", "GoalTestSupport", "GoalServer", "GoalStore", "GoalPostgres",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoaldTests",
            dependencies: [
                "GoalTestSlots",
                "goald", "GoalServer", "GoalStore", "GoalTestSupport", "GoalPostgres", "GoalCommandLine", "GoalModel",
                "GoalWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalClientCLITests",
            dependencies: [
                "GoalTestSlots",
                "goal-client", "GoalTestSupport", "GoalServer", "GoalStore", "GoalClient", "GoalModel", "GoalWire",
                "GoalTransport", "GoalCommandLine",
                // LeagueSettingsTests parse goal-client's command lines.
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // ReadmeWalkthroughTests run README's commands with the built goald and goal-load.
                "goald", "goal-load",
                // BrowserTests speak WebDriver to chromedriver over plain HTTP on 127.0.0.1 (NIOHTTP1: Foundation's
                // URLSession on Linux rejects chromedriver's `Content-Length:250` header without a space), and pin
                // the test server's key in Chromium (SHA-256 of its SPKI: Crypto).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ] + nio("NIOCore", "NIOPosix", "NIOHTTP1"),
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GoalLoadTests",
            dependencies: [
                "GoalTestSlots", "GoalLocking",
                "goal-load", "GoalTestSupport", "GoalTransport", "GoalClient", "GoalWire", "GoalModel", "GoalServer",
                "GoalStore", "GoalPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
