// swift-tools-version: 6.1
import PackageDescription

// Parlance's benchmarks: a package of its own, so that users of the library never fetch
// benchmark dependencies. Run from this folder:
//   swift package --disable-sandbox benchmark
let package = Package(
    name: "ParlanceBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The package at ".." is identified as "main" (its folder name in a checkout).
        .package(name: "main", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "Support",
            dependencies: [.product(name: "Parlance", package: "main")],
            path: "Benchmarks/Support"
        ),
        .executableTarget(
            name: "ResolverScale",
            dependencies: ["Support", .product(name: "Parlance", package: "main")],
            path: "Benchmarks/ResolverScale"
        ),
        .executableTarget(
            name: "Commands",
            path: "Benchmarks/Commands"
        ),
        .executableTarget(
            name: "SideBySide",
            dependencies: ["Support", .product(name: "Parlance", package: "main")],
            path: "Benchmarks/SideBySide"
        ),
        .executableTarget(
            name: "TextLayer",
            dependencies: [
                .product(name: "Parlance", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TextLayer",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Parser",
            dependencies: [
                .product(name: "Parlance", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Parser",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
