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
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        // Tools/: programs that measure from outside the benchmark harness (the harness runs every
        // executable target under Benchmarks/ as a benchmark).
        .target(
            name: "Support",
            dependencies: [.product(name: "Parlance", package: "main")],
            path: "Tools/Support"
        ),
        .executableTarget(
            name: "ResolverScale",
            dependencies: ["Support", .product(name: "Parlance", package: "main")],
            path: "Tools/ResolverScale"
        ),
        .executableTarget(
            name: "Commands",
            path: "Tools/Commands"
        ),
        .executableTarget(
            name: "SideBySide",
            dependencies: ["Support", .product(name: "Parlance", package: "main")],
            path: "Tools/SideBySide"
        ),
        .executableTarget(
            name: "TextLayer",
            dependencies: [
                .product(name: "Parlance", package: "main"),
                .product(name: "Benchmark", package: "benchmark")
            ],
            path: "Benchmarks/TextLayer",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Parser",
            dependencies: [
                .product(name: "Parlance", package: "main"),
                .product(name: "Benchmark", package: "benchmark")
            ],
            path: "Benchmarks/Parser",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
