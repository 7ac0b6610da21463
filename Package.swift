// swift-tools-version:6.1
import PackageDescription

// Folders mirror the architecture:
//   Sources/ConditionsKit   the contract every source module implements (tiny, public)
//   Sources/ConditionsCore  the host as a library: catalog, config, runtime, resolver, cache,
//                           output, watch; `package` API for the front ends in this package
//   Sources/conditions      the CLI front end: argument parsing and exit codes
//   Plugins/<Module>        one self-contained source module each: Sources/, Tests/, README.md,
//                           sample.json, and where it has them StandIn/, EndToEndTests/, Fuzz/
let package = Package(
    name: "Conditions",
    // Linux only: the host uses Linux interfaces (pidfd through swift-subprocess, /proc, epoll
    // in libcurl's loop, glibc's sigaction layout) and has never been built on macOS.
    products: [
        .executable(name: "conditions", targets: ["conditions"]),
        .library(name: "ConditionsKit", targets: ["ConditionsKit"]),
        .library(name: "ConditionsKitTesting", targets: ["ConditionsKitTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        // Allocation counts for `conditions-bench` (the counter behind ordo-one/package-benchmark's malloc metrics).
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.0"),
        // Child programs (ConditionsProcess; the test harness and bench): clean signal state, own process group, async wait.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.0"),
        // FileDescriptor for Subprocess's descriptor I/O (Apple platforms use the SDK's System).
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        // SHA-256 for cache keys (Foundation on Linux has no digest API).
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        // `conditions mcp`: the official Model Context Protocol SDK (server, stdio transport).
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
        // `conditions serve`: HTTP server, start-up and graceful shutdown, Prometheus metrics.
        // Without its default ConfigurationSupport trait (reading swift-configuration's
        // ConfigReader, which nothing here does): swift-configuration's ~0.4 MB of code is
        // otherwise linked into every start of the program (docs/performance.md, issue 45).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        // End-to-end tests of `conditions serve` over real HTTP.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // `conditions serve`'s cached answers, below Hummingbird: its HTTP/1 pipeline's parts.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Tests only: `/v1/openapi.json` decoded and validated as OpenAPI 3.1 (OpenAPITests).
        // Without its default trait (ExternalLoading): nothing here loads external references.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", exact: "6.4.0", traits: []),
        // The history store (Sources/ConditionsCore/History): SQLite compiled in, each statement on
        // NIO's thread pool, never on a cooperative-pool thread (README, "History").
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.0"),
        // The history store in PostgreSQL, when sources.json's `history.url` names one (docs/history.md).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // `swift package generate-documentation --target ConditionsKit`: the plugin authors' DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // MARK: Contract
        // What a module implements and receives, and nothing else: the protocol, URN and router,
        // the result, options, context, errors and the presentation API (Sources/ConditionsKit).
        .target(
            name: "ConditionsKit",
            dependencies: [
                "ConditionsEntities",
                "ConditionsFigures",
                "ConditionsGeo",
                "ConditionsJSON",
                "ConditionsText",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Shared toolkits
        // Text a module reads and writes: ISO 8601 instants and civil dates, grouped numbers,
        // close-name suggestions, secrets masked in URLs and headers.
        .target(name: "ConditionsText"),
        // JSON values, parsing and writing: result data, sources.json, fixtures.
        .target(name: "ConditionsJSON", dependencies: [
            "ConditionsText",
            .product(name: "OrderedCollections", package: "swift-collections"),
        ]),
        // Points on Earth: the one coordinate type (cards, maps, places), distances, GeoJSON outlines.
        .target(name: "ConditionsGeo", dependencies: ["ConditionsJSON"]),
        // Figures as marks over two axes (`Drawing`), which the dashboard draws without knowing
        // what they show, and the compositions several modules share (bars over days).
        .target(name: "ConditionsFigures"),
        // A result as Home Assistant entities (`Entity`: sensors and binary sensors with units and
        // device classes), which `serve` publishes over MQTT discovery.
        .target(name: "ConditionsEntities", dependencies: ["ConditionsJSON", "ConditionsText"]),
        // The moon's shared kinds (`moon`, `phases`): their data and presentations, for every
        // module that answers them (Astronomy, Aeris).
        .target(name: "ConditionsMoon", dependencies: ["ConditionsEntities", "ConditionsKit", "ConditionsFigures", "ConditionsJSON", "ConditionsText"]),
        // The pass kind (`pass`): its status words, the closure reader ("a closed road never reads
        // restricted"), chain-control levels and the presentation, for every module that answers
        // it (WSDOT, Caltrans).
        .target(name: "ConditionsPass", dependencies: ["ConditionsEntities", "ConditionsKit", "ConditionsGeo", "ConditionsJSON", "ConditionsText"]),
        // What modules share over the contract: a URN's `{place}` read one way (`PlacePoint`,
        // `Location.place(in:)`), and a key-less JSON API's get-check-decode (`JSONAPI`).
        .target(name: "ConditionsHelpers", dependencies: ["ConditionsKit", "ConditionsGeo", "ConditionsJSON", "ConditionsText"]),
        // The in-process memo (FreshValues): values made once, shared while fresh; the memory
        // behind each instance's `SourceMemo`, WSDOT's feed and the server's fresh answers.
        // Cross-module optimization: FreshValues is generic and answers every cached request of
        // `conditions serve`; unspecialized in the server's module it looked up its type
        // metadata on each call (~3 % of the server's CPU under wrk, scenario 9;
        // docs/performance.md, "Issue 45").
        .target(name: "ConditionsMemo", dependencies: ["ConditionsKit", "ConditionsJSON"],
                swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "ConditionsHTML", dependencies: ["CLibXML2"], exclude: ["README.md"]),
        // libcurl's headers (libcurl4-openssl-dev). Its functions are defined by LazyLibcurl,
        // which opens libcurl.so.4 on the first call (docs/performance.md, scenario 1).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "LazyLibcurl"),
        // MQTT for `serve`'s Home Assistant devices: libmosquitto's headers (libmosquitto-dev), its
        // functions defined by LazyMosquitto, which opens libmosquitto.so.1 on the first call.
        .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .target(name: "LazyMosquitto"),
        .target(name: "ConditionsMQTT", dependencies: ["CMosquitto", "LazyMosquitto"], exclude: ["README.md"]),
        .target(name: "ConditionsHTTP", dependencies: ["ConditionsKit", "ConditionsJSON", "ConditionsText", "CCurl", "LazyLibcurl"], exclude: ["README.md"]),
        // Runs child programs (hooks, Exec programs, the page renderer): own process group, clean
        // signal state, deadline, output cap, no cooperative-pool thread waiting.
        .target(name: "ConditionsProcess", dependencies: [
            .product(name: "Subprocess", package: "swift-subprocess"),
            .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
        ], exclude: ["README.md"]),

        // MARK: Host
        .target(
            name: "ConditionsCore",
            dependencies: [
                "ConditionsKit",
                "ConditionsEntities",
                "ConditionsMQTT",
                "ConditionsJSON",
                "ConditionsText",
                "ConditionsMemo",
                "ConditionsHTTP",
                "ConditionsProcess",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            // The PostgreSQL history store's schema, compiled in (`PackageResources`).
            resources: [.embedInCode("History/Resources/postgres-1.sql"), .embedInCode("History/Resources/postgres-2.sql"),
                        .embedInCode("History/Resources/postgres-3.sql"), .embedInCode("History/Resources/postgres-4.sql")]
        ),
        // The MCP server over ConditionsCore: tools, resources, hostile-input limits.
        .target(
            name: "ConditionsMCP",
            dependencies: [
                "ConditionsCore",
                "ConditionsKit",
                "ConditionsJSON",
                "ConditionsText",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // `conditions serve` as a library: the executable only parses options and wires it.
        .target(
            name: "ConditionsServer",
            dependencies: [
                "ConditionsCore",
                "ConditionsEntities",
                "ConditionsMQTT",
                "ConditionsKit",
                "ConditionsFigures",
                "ConditionsGeo",
                "ConditionsJSON",
                "ConditionsText",
                "ConditionsMemo",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The dashboard at `/`: server-rendered from templates.
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            // The dashboard's templates, stylesheet and script, and `/v1/openapi.json`, compiled into
            // the binary (`PackageResources`), so an installed or moved `conditions` needs no folder beside it.
            resources: [
                .embedInCode("Dashboard/Resources/templates/page.mustache"),
                .embedInCode("Dashboard/Resources/templates/card.mustache"),
                .embedInCode("Dashboard/Resources/templates/part.mustache"),
                .embedInCode("Dashboard/Resources/templates/drawing.mustache"),
                .embedInCode("Dashboard/Resources/templates/history.mustache"),
                .embedInCode("Dashboard/Resources/templates/map.mustache"),
                .embedInCode("Dashboard/Resources/templates/error.mustache"),
                .embedInCode("Dashboard/Resources/assets/dashboard.css"),
                .embedInCode("Dashboard/Resources/assets/dashboard.js"),
                .embedInCode("OpenAPI/openapi.json"),
            ]
        ),
        // MARK: Registration
        // The source modules `conditions` links, listed once (RegisteredModules.swift); the host
        // targets above depend on none of them.
        .target(
            name: "ConditionsModules",
            dependencies: [
                "ConditionsKit",
                "Fixtures",
                "Aeris",
                "WSDOT",
                "Astronomy",
                "Exec",
                "NWS",
                "Avalanche",
                "Snowpack",
                "SpaceWeather",
                "Caltrans",
            ]
        ),

        .executableTarget(
            name: "conditions",
            dependencies: [
                "ConditionsModules",
                "ConditionsCore",
                "ConditionsKit",
                "ConditionsProcess",
                "ConditionsServer",
                "ConditionsMCP",
                "ConditionsMQTT",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // The built-in default config: the repository's sources.json (a link to it), compiled in.
            resources: [.embedInCode("Resources/sources.json")]
        ),

        // MARK: Benchmarks (`scripts/dev bench`)
        .executableTarget(
            name: "conditions-bench",
            dependencies: [
                "ConditionsModules",
                "ConditionsCore",
                "ConditionsKit",
                "ConditionsHTML",
                "LoopbackServer",
                "WSDOTStandIn", // the rendering scenarios' page
                "CaltransStandIn", // scenario 19's CWWP2 files
                "ConditionsKitTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ]
        ),

        // Spawns each measured process from a tiny parent, so its peak RSS is its own.
        .executableTarget(name: "conditions-bench-spawn", path: "Sources/conditions-bench-spawn"),

        // MARK: Source modules (plugins)
        // Each compiles in its sample config (Sources/sample.json, a link to Plugins/<Module>/sample.json),
        // which `conditions config init --module <Module>` prints: no resource bundle at run time.
        .target(name: "Fixtures", dependencies: ["ConditionsKit", "ConditionsJSON", "ConditionsText"], path: "Plugins/Fixtures/Sources", resources: [.embedInCode("sample.json")]),
        .target(name: "Aeris", dependencies: ["ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsMoon", .product(name: "Logging", package: "swift-log")], path: "Plugins/Aeris/Sources", resources: [.embedInCode("sample.json")]),
        // ConditionsProcess: the `render` option runs a headless browser.
        .target(name: "WSDOT", dependencies: ["ConditionsKit", "ConditionsPass", "ConditionsFigures", "ConditionsGeo", "ConditionsJSON", "ConditionsText", "ConditionsMemo", "ConditionsHTML", "ConditionsProcess"], path: "Plugins/WSDOT/Sources",
                exclude: ["Resources/SOURCES.md"], resources: [.embedInCode("Resources/washington-outline.json"), .embedInCode("sample.json")]),
        .target(name: "Astronomy", dependencies: ["ConditionsEntities", "ConditionsKit", "ConditionsHelpers", "ConditionsFigures", "ConditionsJSON", "ConditionsText", "ConditionsMoon"], path: "Plugins/Astronomy/Sources",
                // The series tables are compiled in (SeriesTables.swift); their text, which it is
                // written from, is read by the tests alone.
                exclude: ["Resources/SOURCES.md", "Resources/moon-elpmpp02.txt", "Resources/sun-vsop87d.txt", "Resources/delta-t.txt"],
                resources: [.embedInCode("sample.json")]),
        // ConditionsProcess: each URN runs the configured program.
        .target(name: "Exec", dependencies: ["ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsProcess"], path: "Plugins/Exec/Sources", resources: [.embedInCode("sample.json")]),
        .target(name: "NWS", dependencies: ["ConditionsEntities", "ConditionsKit", "ConditionsHelpers", "ConditionsFigures", "ConditionsJSON", "ConditionsText"], path: "Plugins/NWS/Sources", resources: [.embedInCode("sample.json")]),
        // ConditionsMemo keeps the center's map layer between URNs; ConditionsHTML reads forecasters' HTML as text.
        .target(name: "Avalanche", dependencies: ["ConditionsEntities", "ConditionsKit", "ConditionsHelpers", "ConditionsFigures", "ConditionsGeo", "ConditionsJSON", "ConditionsText", "ConditionsMemo", "ConditionsHTML"], path: "Plugins/Avalanche/Sources", resources: [.embedInCode("sample.json")]),
        .target(name: "Snowpack", dependencies: ["ConditionsEntities", "ConditionsKit", "ConditionsHelpers", "ConditionsFigures", "ConditionsGeo", "ConditionsJSON", "ConditionsText", "ConditionsMemo"], path: "Plugins/Snowpack/Sources", resources: [.embedInCode("sample.json")]),
        // SpaceWeather: ConditionsMemo keeps the Kp products for the TTL and the parsed OVATION grid for 5 minutes.
        // ConditionsMemo keeps each district file for the TTL, so every pass shares one request per file.
        .target(name: "Caltrans", dependencies: ["ConditionsKit", "ConditionsPass", "ConditionsGeo", "ConditionsJSON", "ConditionsText", "ConditionsMemo"],
                path: "Plugins/Caltrans/Sources", exclude: ["Resources/SOURCES.md"],
                resources: [.embedInCode("Resources/passes.json"), .embedInCode("Resources/california-outline.json"), .embedInCode("sample.json")]),
        .target(name: "SpaceWeather", dependencies: ["ConditionsEntities", "ConditionsKit", "ConditionsHelpers", "ConditionsGeo", "ConditionsJSON", "ConditionsText", "ConditionsMemo"], path: "Plugins/SpaceWeather/Sources", resources: [.embedInCode("sample.json")]),

        // MARK: Tests
        .target(name: "LoopbackServer", path: "Tests/Support/LoopbackServer", exclude: ["README.md"]),
        // What a source module's tests use (Sources/ConditionsKitTesting): a recording HTTP client,
        // a context builder, routing as the host does, and the loopback server, from one import.
        .target(name: "ConditionsKitTesting", dependencies: [
            "ConditionsKit", "ConditionsEntities", "ConditionsJSON", "ConditionsText", "ConditionsMemo", "LoopbackServer",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Runs the built binaries and writes configs for the end-to-end suites (CLI, server).
        .target(name: "TestHarness", dependencies: [
            "LoopbackServer", "ConditionsText",
            .product(name: "Subprocess", package: "swift-subprocess"),
            .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
        ], path: "Tests/Support/TestHarness"),
        // Modules only tests register: the host, the server and MCP are tested with modules they
        // do not know (Echo, a map of its own; Combine, which resolves other URNs through the host).
        .target(name: "TestSources", dependencies: ["ConditionsKit", "ConditionsJSON"], path: "Tests/Support/TestSources"),
        // A configuration in a folder of its own, loaded with the modules a test names.
        .target(name: "HostTestSupport", dependencies: ["ConditionsCore", "ConditionsKit", "ConditionsJSON", "ConditionsText",
                                                         .product(name: "Logging", package: "swift-log")], path: "Tests/Support/HostTestSupport"),
        // `conditions serve` in this process with the registered modules, and the HTTP helpers the
        // serve suites share (ConditionsServeTests re-exports it; plugins' end-to-end suites import it).
        .target(name: "ServeHarness", dependencies: ["ConditionsServer", "ConditionsCore", "ConditionsModules",
                                                  .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                  .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                                                  .product(name: "HummingbirdTesting", package: "hummingbird"),
                                                  .product(name: "Logging", package: "swift-log")], path: "Tests/Support/ServeHarness"),
        // Calls LazyLibcurl's functions from C, as FoundationNetworking does.
        .target(name: "LazyLibcurlProbe", dependencies: ["LazyLibcurl"], path: "Tests/Support/LazyLibcurlProbe"),
        // The DocC catalog's code (Sources/ConditionsKit/ConditionsKit.docc), compiled and tested: each
        // file is one of its articles' `swift` blocks, whose modules the articles call Tides and Outing
        // (DocCCatalogTests checks that they are equal, and that the catalog builds with no warning).
        .target(name: "DocCTides", dependencies: ["ConditionsKit", "ConditionsHelpers", "ConditionsJSON", "ConditionsText"], path: "Tests/DocCSnippets/Tides",
                resources: [.embedInCode("sample.json")]),
        .target(name: "DocCOuting", dependencies: ["ConditionsKit", "ConditionsJSON"], path: "Tests/DocCSnippets/Outing"),
        .testTarget(name: "DocCSnippetTests", dependencies: ["DocCTides", "DocCOuting", "ConditionsKit", "ConditionsJSON", "ConditionsText",
                                                         "ConditionsKitTesting", "TestHarness"]),
        .testTarget(name: "ConditionsHTTPTests", dependencies: ["ConditionsHTTP", "ConditionsKit", "LoopbackServer", "CCurl", "LazyLibcurl", "LazyLibcurlProbe"]),
        .testTarget(name: "ConditionsKitTests", dependencies: ["ConditionsHelpers", "ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsMemo"]),
        .testTarget(name: "ConditionsJSONTests", dependencies: ["ConditionsJSON", "ConditionsText", "ConditionsKit"]),
        .testTarget(name: "ConditionsTextTests", dependencies: ["ConditionsText"]),
        .testTarget(name: "ConditionsKitTestingTests", dependencies: ["ConditionsKitTesting", "ConditionsKit", "ConditionsJSON", "ConditionsMemo"]),
        .testTarget(name: "ConditionsFiguresTests", dependencies: ["ConditionsFigures"]),
        .testTarget(name: "ConditionsMoonTests", dependencies: ["ConditionsEntities", "ConditionsKitTesting", "ConditionsFigures", "ConditionsMoon", "ConditionsKit", "ConditionsJSON", "ConditionsText"]),
        .testTarget(name: "ConditionsProcessTests", dependencies: ["ConditionsProcess"]),
        .testTarget(name: "ConditionsCoreTests", dependencies: ["ConditionsCore", "ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsKitTesting", "TestSources", "HostTestSupport",
                                                            "LoopbackServer", "TestHarness", .product(name: "Logging", package: "swift-log"),
                                                            .product(name: "SQLiteNIO", package: "sqlite-nio"),
                                                            .product(name: "PostgresNIO", package: "postgres-nio")]),
        // The host with the registered modules, in process, as `conditions` links them (the
        // host's own tests above link no module but the test-only ones).
        .testTarget(name: "ConditionsProgramTests", dependencies: ["ConditionsKitTesting", "ConditionsCore", "ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsMoon",
                                                               "ConditionsModules", "HostTestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "ConditionsCLITests", dependencies: [
            "conditions", "ConditionsCore", "LoopbackServer", "TestHarness",
            .product(name: "Subprocess", package: "swift-subprocess"),
            .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
        ]),
        .testTarget(name: "ConditionsMCPTests", dependencies: ["ConditionsMCP"]),
        // `conditions serve` as users run it: through the built binary, and in process with the
        // registered modules as the executable assembles it (the server library's own tests,
        // ConditionsServerTests, link no module but the test-only ones).
        .testTarget(name: "ConditionsServeTests", dependencies: ["ConditionsHelpers", 
                "ConditionsKitTesting",
            "conditions", "ConditionsFigures", "ConditionsServer", "ConditionsCore", "ConditionsKit", "ConditionsModules", "TestSources", "LoopbackServer", "TestHarness", "ServeHarness",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "Subprocess", package: "swift-subprocess"),
            .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            .product(name: "OpenAPIKit", package: "OpenAPIKit"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        .testTarget(name: "ConditionsServerTests", dependencies: [
            "ConditionsFigures",
            "ConditionsServer", "ConditionsCore", "ConditionsKit", "ConditionsJSON", "TestSources", "HostTestSupport", "TestHarness",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Each plugin's stand-in for its upstream (Plugins/<Module>/StandIn: a loopback server over the
        // plugin's Tests/Resources, target <Module>StandIn) and its suites through the built binary
        // (Plugins/<Module>/EndToEndTests, <Module>EndToEndTests) follow its tests: every line of a
        // plugin names it, so removing one is its folder and those lines (NewSourceTests removes one).
        .testTarget(name: "ConditionsHTMLTests", dependencies: ["ConditionsHTML"], resources: [.copy("Resources")]),
        .testTarget(name: "FixturesTests", dependencies: ["Fixtures", "ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsKitTesting"], path: "Plugins/Fixtures/Tests"),
        .testTarget(name: "AerisTests", dependencies: ["Aeris", "ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsMoon", "ConditionsKitTesting", .product(name: "Logging", package: "swift-log")], path: "Plugins/Aeris/Tests", exclude: ["Resources"]),
        .testTarget(name: "WSDOTTests", dependencies: ["ConditionsEntities", "ConditionsFigures", "ConditionsPass", "WSDOT", "ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsKitTesting", "WSDOTStandIn", .product(name: "Logging", package: "swift-log")], path: "Plugins/WSDOT/Tests", exclude: ["Resources"]),
        .target(name: "WSDOTStandIn", path: "Plugins/WSDOT/StandIn"),
        .testTarget(name: "WSDOTEndToEndTests", dependencies: ["conditions", "ConditionsKit", "LoopbackServer", "TestHarness"], path: "Plugins/WSDOT/EndToEndTests"),
        .testTarget(name: "AstronomyTests", dependencies: ["ConditionsEntities", "ConditionsFigures", "Astronomy", "ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsMoon", "ConditionsKitTesting", .product(name: "Logging", package: "swift-log")], path: "Plugins/Astronomy/Tests", exclude: ["Resources"]),
        .testTarget(name: "AstronomyEndToEndTests", dependencies: ["ConditionsKitTesting", "ConditionsKit", "conditions", "TestHarness"], path: "Plugins/Astronomy/EndToEndTests"),
        .testTarget(name: "ExecTests", dependencies: ["Exec", "ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsProcess", "ConditionsKitTesting"], path: "Plugins/Exec/Tests"),
        .testTarget(name: "ExecEndToEndTests", dependencies: ["conditions", "TestHarness"], path: "Plugins/Exec/EndToEndTests"),
        // NWS: its tests ask the stand-in for api.weather.gov (NWSStandIn) through libcurl.
        .testTarget(name: "NWSTests", dependencies: ["ConditionsEntities", "ConditionsHelpers", "ConditionsFigures", "NWS", "ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsMemo", "ConditionsHTTP", "ConditionsKitTesting", "TestHarness", "NWSStandIn", .product(name: "Logging", package: "swift-log")], path: "Plugins/NWS/Tests", exclude: ["Resources"]),
        .target(name: "NWSStandIn", dependencies: ["LoopbackServer", "ConditionsText"], path: "Plugins/NWS/StandIn"),
        .testTarget(name: "NWSEndToEndTests", dependencies: ["ConditionsKitTesting", "ConditionsKit", "NWSStandIn", "conditions", "LoopbackServer", "TestHarness", "ServeHarness"], path: "Plugins/NWS/EndToEndTests"),
        .testTarget(name: "AvalancheTests", dependencies: ["ConditionsEntities", "ConditionsFigures", "Avalanche", "ConditionsKit", "ConditionsGeo", "ConditionsJSON", "ConditionsText", "ConditionsMemo", "ConditionsHTTP", "ConditionsKitTesting"], path: "Plugins/Avalanche/Tests", exclude: ["Resources"]),
        .target(name: "AvalancheStandIn", dependencies: ["LoopbackServer"], path: "Plugins/Avalanche/StandIn"),
        .testTarget(name: "AvalancheEndToEndTests", dependencies: ["ConditionsKitTesting", "ConditionsKit", "AvalancheStandIn", "conditions", "LoopbackServer", "TestHarness"], path: "Plugins/Avalanche/EndToEndTests"),
        .testTarget(name: "CaltransTests", dependencies: ["ConditionsEntities", "Caltrans", "ConditionsPass", "ConditionsKit", "ConditionsGeo", "ConditionsJSON", "ConditionsText", "ConditionsKitTesting",
                                                          .product(name: "Crypto", package: "swift-crypto")], path: "Plugins/Caltrans/Tests", exclude: ["Resources"]),
        .target(name: "CaltransStandIn", dependencies: ["LoopbackServer"], path: "Plugins/Caltrans/StandIn"),
        .testTarget(name: "CaltransEndToEndTests", dependencies: ["ConditionsKitTesting", "ConditionsKit", "CaltransStandIn", "conditions", "LoopbackServer", "TestHarness"], path: "Plugins/Caltrans/EndToEndTests"),
        .testTarget(name: "SnowpackTests", dependencies: ["ConditionsEntities", "ConditionsFigures", "Snowpack", "ConditionsKit", "ConditionsGeo", "ConditionsJSON", "ConditionsText", "ConditionsMemo", "ConditionsHTTP", "ConditionsKitTesting"], path: "Plugins/Snowpack/Tests", exclude: ["Resources"]),
        .target(name: "SnowpackStandIn", dependencies: ["LoopbackServer"], path: "Plugins/Snowpack/StandIn"),
        .testTarget(name: "SnowpackEndToEndTests", dependencies: ["ConditionsKitTesting", "ConditionsKit", "SnowpackStandIn", "conditions", "LoopbackServer", "TestHarness"], path: "Plugins/Snowpack/EndToEndTests"),
        .testTarget(name: "SpaceWeatherTests", dependencies: ["ConditionsEntities", "SpaceWeather", "ConditionsKit", "ConditionsJSON", "ConditionsText", "ConditionsMemo", "ConditionsHTTP", "ConditionsKitTesting"], path: "Plugins/SpaceWeather/Tests", exclude: ["Resources"]),
        .target(name: "SpaceWeatherStandIn", dependencies: ["LoopbackServer"], path: "Plugins/SpaceWeather/StandIn"),
        .testTarget(name: "SpaceWeatherEndToEndTests", dependencies: ["ConditionsKitTesting", "ConditionsKit", "SpaceWeatherStandIn", "conditions", "LoopbackServer", "TestHarness"], path: "Plugins/SpaceWeather/EndToEndTests"),
    ],
    swiftLanguageModes: [.v6]
)
