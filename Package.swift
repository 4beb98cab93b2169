// swift-tools-version:6.1
import PackageDescription

/// Settings every target of ours shares: Swift 6 mode plus the upcoming features HOUSE-STYLE asks for.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "goald",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GoalModel", targets: ["GoalModel"]),
        .library(name: "GoalWire", targets: ["GoalWire"]),
        .library(name: "GoalReactive", targets: ["GoalReactive"]),
        .library(name: "GoalStore", targets: ["GoalStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // Pure domain: no IO, no async. Imports point down only (DESIGN.md "Layout").
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
        // Persistence: the store protocol, an in-memory store and the SQLite store (GRDB).
        .target(
            name: "GoalStore",
            dependencies: ["GoalModel", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),

        .testTarget(name: "GoalModelTests", dependencies: ["GoalModel", "GoalWire"], swiftSettings: strictSettings),
        .testTarget(name: "GoalWireTests", dependencies: ["GoalWire", "GoalModel"], swiftSettings: strictSettings),
        .testTarget(name: "GoalReactiveTests", dependencies: ["GoalReactive"], swiftSettings: strictSettings),
        .testTarget(
            name: "GoalStoreTests",
            dependencies: ["GoalStore", "GoalModel", "GoalWire"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
