// swift-tools-version: 6.0
import PackageDescription

// The pipeline, one module per stage:
//   CICUSystem      system libicu-dev, found through pkg-config (module map only)
//   CZlib           system zlib (zlib1g-dev), for .jsonl.gz input (module map only)
//   CStemmer        system Snowball stemmers (libstemmer-dev), for the trained tier (module map only)
//   CParlanceICU    a small C target over ICU whose public header exposes no ICU type
//   ParlanceICU     the only Swift code that knows ICU
//   ParlanceText    tokens, normalization, value recognizers; language data in Languages/<code>/
//   ParlanceContext the context model both stages read: apps, vocabulary items and the one
//                   VocabularyStore, plists, .intentdefinition import, custom intents, shortcuts,
//                   donations, the intent catalogue (Data/intents.json), result types
//   ParlanceParser  intent templates compiled to a matcher, app names, fallback model; grammars in Grammar/
//   ParlanceResolver  candidate index over the store's sets, scoring, resolution policy
//   ParlanceEvaluation  batch I/O (records.md lines in and out), annotated corpora and their metrics
//   Parlance        the library users import (re-exports the stages; ResolvingParser)
//   ParlanceServer  `parlance serve`: HTTP/JSON over the library (Hummingbird), kept out of the library
//   parlance        the command-line tool (swift-argument-parser), thin over the library
let package = Package(
    name: "Parlance",
    products: [
        .library(name: "Parlance", targets: ["Parlance"]),
        .executable(name: "parlance", targets: ["ParlanceCommand"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // SQLite for the users' database (ParlanceContext.UserDatabase): vocabulary and donations
        // kept across launches.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `parlance serve` (ParlanceServer, a target of its own: the library never depends on a server).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The server's tests talk to it as a client would.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation` (the DocC catalog in Sources/Parlance/Parlance.docc);
        // a plugin only: no target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")
    ],
    targets: [
        .systemLibrary(
            name: "CICUSystem",
            pkgConfig: "icu-i18n",
            providers: [.apt(["libicu-dev", "pkg-config"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CStemmer",
            providers: [.apt(["libstemmer-dev"])]
        ),
        .target(
            name: "CParlanceICU",
            dependencies: ["CICUSystem"]
        ),
        .target(
            name: "ParlanceICU",
            dependencies: ["CParlanceICU"]
        ),
        .target(
            name: "ParlanceText",
            dependencies: ["ParlanceICU", "CStemmer"],
            resources: [.copy("Languages")]
        ),
        .target(
            name: "ParlanceContext",
            dependencies: ["ParlanceText", "ParlanceICU", .product(name: "GRDB", package: "GRDB.swift")],
            resources: [.copy("Data")]
        ),
        .target(
            name: "ParlanceParser",
            dependencies: ["ParlanceText", "ParlanceICU", "ParlanceContext"],
            resources: [.copy("Grammar")]
        ),
        .target(
            name: "ParlanceResolver",
            dependencies: ["ParlanceText", "ParlanceContext", "ParlanceICU"],
            exclude: ["README.md"]
        ),
        .target(
            name: "ParlanceEvaluation",
            dependencies: ["ParlanceText", "ParlanceContext", "ParlanceParser", "ParlanceResolver", "CZlib"]
        ),
        .target(
            name: "Parlance",
            dependencies: ["ParlanceText", "ParlanceContext", "ParlanceParser", "ParlanceResolver", "ParlanceEvaluation"]
        ),
        .target(
            name: "ParlanceServer",
            dependencies: [
                "Parlance", "ParlanceICU",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio")
            ],
            resources: [.copy("openapi.json")]
        ),
        .executableTarget(
            name: "ParlanceCommand",
            dependencies: [
                "Parlance", "ParlanceServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            // What a language is made of, and the skeleton `parlance new-language` writes.
            resources: [.copy("NewLanguage")]
        ),
        // The documentation's Swift examples, through `import Parlance`.
        .testTarget(
            name: "ParlanceTests",
            dependencies: ["Parlance"]
        ),
        .testTarget(
            name: "ParlanceICUTests",
            dependencies: ["ParlanceICU"]
        ),
        .testTarget(
            name: "ParlanceEvaluationTests",
            dependencies: [
                "Parlance", "ParlanceEvaluation", "ParlanceResolver", "ParlanceContext", "ParlanceParser", "ParlanceICU", "CZlib"
            ]
        ),
        .testTarget(
            name: "ParlanceResolverTests",
            dependencies: [
                "Parlance", "ParlanceResolver", "ParlanceContext", "ParlanceParser", .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        .testTarget(
            name: "ParlanceParserTests",
            dependencies: ["ParlanceParser", "ParlanceContext"],
            exclude: ["Cases"]
        ),
        // The command itself, run as a process: the hostile-input corpus (Hostile/) and the
        // snapshots of its help and outputs (Snapshots/).
        .testTarget(
            name: "ParlanceCommandTests",
            dependencies: ["ParlanceCommand"],
            exclude: ["Hostile", "Snapshots"]
        ),
        .testTarget(
            name: "ParlanceServerTests",
            dependencies: [
                "ParlanceServer", "Parlance", "ParlanceCommand",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        .testTarget(
            name: "ParlanceTextTests",
            dependencies: ["ParlanceText"],
            exclude: ["Cases", "Golden"]
        )
    ]
)
