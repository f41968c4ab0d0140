// swift-tools-version: 6.1
import PackageDescription

// Parlance's fuzz harnesses (issue 17): a package of its own, so that the library never builds
// them. Each harness is an executable target that libFuzzer drives; build and run them with
//   bash Fuzz/run.sh [runs per harness]
// (swift build -Xswiftc -sanitize=fuzzer,address: libFuzzer from the toolchain, AddressSanitizer).
let harnesses = [
    "FuzzText", "FuzzParse", "FuzzResolve", "FuzzBatchLine", "FuzzContext", "FuzzPlist", "FuzzIntentDefinition", "FuzzDonations"
]

let package = Package(
    name: "ParlanceFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The package at ".." is identified as "main" (its folder name in a checkout).
        .package(name: "main", path: "..")
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Parlance", package: "main")], path: "Sources/FuzzSupport")
    ]
        + harnesses.map { name in
            .executableTarget(
                name: name, dependencies: ["FuzzSupport", .product(name: "Parlance", package: "main")], path: "Sources/\(name)")
        }
)
