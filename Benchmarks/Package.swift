// swift-tools-version:6.1
import PackageDescription

// Micro-benchmarks live in their own package so their tooling stays out of the core graph.
// Run: swift run -c release --package-path Benchmarks goal-microbench --help
let package = Package(
    name: "goald-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "goald", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "goal-microbench",
            dependencies: [
                .product(name: "GoalModel", package: "goald"),
                .product(name: "GoalWire", package: "goald"),
                .product(name: "GoalReactive", package: "goald"),
                .product(name: "GoalClient", package: "goald"),
                .product(name: "GoalViewModels", package: "goald"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
