// swift-tools-version:6.1
import PackageDescription

// Folders mirror the architecture:
//   Sources/ConditionsKit   the contract every source module implements (tiny, public)
//   Sources/conditions      the host executable (CLI, config, catalog, rendering)
//   Plugins/<Module>        one self-contained source module each: Sources/, Tests/, README.md
let package = Package(
    name: "Conditions",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "conditions", targets: ["conditions"]),
        .library(name: "ConditionsKit", targets: ["ConditionsKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // MARK: Contract
        .target(
            name: "ConditionsKit",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),

        // MARK: Shared toolkits
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlShims", dependencies: ["CCurl"]),
        .target(name: "ConditionsHTTP", dependencies: ["ConditionsKit", "CCurl", "CCurlShims"]),

        // MARK: Host
        .executableTarget(
            name: "conditions",
            dependencies: [
                "ConditionsKit",
                "Fixtures",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Source modules (plugins)
        .target(name: "Fixtures", dependencies: ["ConditionsKit"], path: "Plugins/Fixtures/Sources"),

        // MARK: Tests
        .target(name: "LoopbackServer", path: "Tests/Support/LoopbackServer"),
        .testTarget(name: "ConditionsHTTPTests", dependencies: ["ConditionsHTTP", "ConditionsKit", "LoopbackServer"]),
        .testTarget(name: "ConditionsKitTests", dependencies: ["ConditionsKit"]),
        .testTarget(name: "ConditionsCLITests", dependencies: ["conditions"]),
        .testTarget(name: "FixturesTests", dependencies: ["Fixtures", "ConditionsKit"], path: "Plugins/Fixtures/Tests"),
    ],
    swiftLanguageModes: [.v6]
)
