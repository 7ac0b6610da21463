import Foundation
import LoopbackServer
import TestHarness
import Testing

/// `scripts/new-source`: its refusals and what it writes (plain and `--http`) on a throwaway
/// copy of the two files it edits, and one end-to-end run that scaffolds both shapes, removes
/// a shipped plugin, builds, tests, routes and resolves them over the checkout's own build.
@Suite struct NewSourceTests {
    /// Runs `executable arguments` in `directory` with this process's environment plus `environment`.
    static func run(_ executable: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:], timeout: TimeInterval) async throws -> CLI.Output {
        try await CLI.runProgram(URL(fileURLWithPath: executable), arguments, in: directory,
                           environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, timeout: timeout)
    }

    /// Runs the rebuilt `conditions` (or a script starting it) with its state and cache in
    /// `directory`, never in the real home folder.
    static func runConditions(_ executable: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:],
                              timeout: TimeInterval) async throws -> CLI.Output {
        let home = ["HOME": directory.path, "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
                    "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path, "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path]
        return try await run(executable, arguments, in: directory, environment: home.merging(environment) { $1 }, timeout: timeout)
    }

    static func newSource(_ arguments: [String], in directory: URL) async throws -> CLI.Output {
        try await run("/bin/bash", ["scripts/new-source"] + arguments, in: directory, timeout: 60)
    }

    /// A copy of the package without build folders or git metadata.
    static func copyPackage(to destination: URL, only names: Set<String>? = nil) throws {
        let files = FileManager.default
        for name in try files.contentsOfDirectory(atPath: CLI.packageRoot.path).sorted() {
            if name.hasPrefix(".build") || name == ".git" || name == ".swiftpm" { continue }
            if let names, !names.contains(name) { continue }
            try files.copyItem(at: CLI.packageRoot.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
    }

    /// Just what the script reads and edits.
    static func skeleton() throws -> URL {
        let folder = try CLI.temporaryDirectory()
        try copyPackage(to: folder, only: ["Package.swift", "scripts"])
        let registry = folder.appendingPathComponent("Sources/ConditionsModules")
        try FileManager.default.createDirectory(at: registry, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Sources/ConditionsModules/RegisteredModules.swift"),
                                         to: registry.appendingPathComponent("RegisteredModules.swift"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Plugins"), withIntermediateDirectories: true)
        return folder
    }

    func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test func addsExactlyTheModuleFolderAndFiveRegistrationLines() async throws {
        let folder = try Self.skeleton()
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = try text(folder.appendingPathComponent("Package.swift"))
        let catalog = try text(folder.appendingPathComponent("Sources/ConditionsModules/RegisteredModules.swift"))

        let run = try await Self.newSource(["Tides", "tide"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        // Nothing in the templates runs as a command: backticks in its heredocs once ran
        // `--help` and `conditions routes` ("--help: command not found").
        #expect(!run.stderr.contains("command not found"), "\(run.stderr)")
        #expect(run.stdout.contains("\"routes\":  { \"tide\": \"tide\" }"))

        let plugin = folder.appendingPathComponent("Plugins/Tides")
        let created = try FileManager.default.subpathsOfDirectory(atPath: plugin.path).sorted()
        #expect(created == ["README.md", "Sources", "Sources/TidesSource.swift", "Sources/sample.json", "Tests", "Tests/TidesTests.swift", "sample.json"])
        try expectSample(in: plugin, name: "Tides", scheme: "tide", options: ["greeting": "hello"])
        let source = try text(plugin.appendingPathComponent("Sources/TidesSource.swift"))
        #expect(source.contains("public struct TidesSource: ConditionsSource {"))
        #expect(source.contains("/// Shown by `--help` and, as this instance's `examples`, by `conditions routes`."))
        #expect(source.contains("[\"tide:{id}\"]"))
        // The module brings its own presentation; the host is not edited at all.
        #expect(source.contains("struct TidesPresentation: ResultPresentation {"))
        #expect(source.contains("public static let kind: ResultKind = \"tide\""))
        #expect(try text(plugin.appendingPathComponent("README.md")).contains("\"routes\": { \"tide\": \"tide\" }"))

        let newPackage = try text(folder.appendingPathComponent("Package.swift"))
        let added = Set(newPackage.split(separator: "\n")).subtracting(package.split(separator: "\n")).map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
        #expect(added == [
            "\"Tides\",",
            ".target(name: \"Tides\", dependencies: [\"ConditionsKit\", \"ConditionsHelpers\", \"ConditionsJSON\", \"ConditionsText\"], path: \"Plugins/Tides/Sources\", resources: [.embedInCode(\"sample.json\")]),",
            ".testTarget(name: \"TidesTests\", dependencies: [\"Tides\", \"ConditionsKit\", \"ConditionsJSON\", \"ConditionsText\", \"ConditionsKitTesting\"], path: \"Plugins/Tides/Tests\"),",
        ])
        #expect(newPackage.split(separator: "\n").count == package.split(separator: "\n").count + 3)
        let newCatalog = try text(folder.appendingPathComponent("Sources/ConditionsModules/RegisteredModules.swift"))
        let addedToCatalog = Set(newCatalog.split(separator: "\n")).subtracting(catalog.split(separator: "\n")).map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
        #expect(addedToCatalog == ["TidesSource.self,", "import Tides"])
        #expect(newCatalog.split(separator: "\n").count == catalog.split(separator: "\n").count + 2)
        // No backups or temporary files left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["Package.swift", "Plugins", "Sources", "scripts"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Sources/ConditionsModules").path) == ["RegisteredModules.swift"])
    }

    /// The sample config: a {"sources", "routes"} fragment of the module, compiled in through the
    /// link in Sources/, and shown as written in the README.
    func expectSample(in plugin: URL, name: String, scheme: String, options: [String: String]) throws {
        let sample = try text(plugin.appendingPathComponent("sample.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sample.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["sources", "routes"])
        let instance = (object["sources"] as? [String: Any])?[scheme] as? [String: Any]
        #expect(instance?["module"] as? String == name)
        #expect(instance?["options"] as? [String: String] == options)
        #expect(object["routes"] as? [String: String] == [scheme: scheme])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: plugin.appendingPathComponent("Sources/sample.json").path) == "../sample.json")
        #expect(try text(plugin.appendingPathComponent("README.md")).contains("```json\n" + sample + "```\n"), "the README shows sample.json")
    }

    @Test func httpWritesTheShapeOfAModuleReadingAnHTTPAPI() async throws {
        let folder = try Self.skeleton()
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = try text(folder.appendingPathComponent("Package.swift"))

        let run = try await Self.newSource(["--http", "Buoys", "buoy"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("command not found"), "\(run.stderr)")
        let plugin = folder.appendingPathComponent("Plugins/Buoys")
        let created = try FileManager.default.subpathsOfDirectory(atPath: plugin.path).sorted()
        #expect(created == ["README.md", "Sources", "Sources/BuoysPresentation.swift", "Sources/BuoysReport.swift",
                            "Sources/BuoysSettings.swift", "Sources/BuoysSource.swift", "Sources/sample.json", "Tests", "Tests/BuoysTests.swift",
                            "Tests/Resources", "Tests/Resources/harbor-7.json", "sample.json"])
        try expectSample(in: plugin, name: "Buoys", scheme: "buoy", options: ["baseURL": "https://api.example.org/buoy"])
        // Every placeholder filled in.
        for file in created where file.hasSuffix(".swift") || file.hasSuffix(".md") {
            let written = try text(plugin.appendingPathComponent(file))
            #expect(!written.contains("@NAME@") && !written.contains("@SCHEME@") && !written.contains("@SAMPLE@"), "\(file) has every placeholder filled in")
        }
        let settings = try text(plugin.appendingPathComponent("Sources/BuoysSettings.swift"))
        #expect(settings.contains("try options.httpURL(\"baseURL\", withoutQuery: true) ?? Self.defaultBaseURL"))
        let source = try text(plugin.appendingPathComponent("Sources/BuoysSource.swift"))
        #expect(source.contains("public struct BuoysSource: ConditionsSource {") && source.contains("[\"buoy:{id}\"]"))
        #expect(source.contains("JSONAPI(http: context.http, upstream: \"the Buoys API\")") && source.contains("BuoysReport(id: id"))
        let tests = try text(plugin.appendingPathComponent("Tests/BuoysTests.swift"))
        #expect(tests.contains("RecordingHTTPClient([\"/buoy/harbor-7.json\": .body(try recorded(\"harbor-7.json\")"))

        let added = Set(try text(folder.appendingPathComponent("Package.swift")).split(separator: "\n")).subtracting(package.split(separator: "\n"))
            .map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
        #expect(added == [
            "\"Buoys\",",
            ".target(name: \"Buoys\", dependencies: [\"ConditionsKit\", \"ConditionsHelpers\", \"ConditionsJSON\", \"ConditionsText\"], path: \"Plugins/Buoys/Sources\", resources: [.embedInCode(\"sample.json\")]),",
            ".testTarget(name: \"BuoysTests\", dependencies: [\"Buoys\", \"ConditionsKit\", \"ConditionsJSON\", \"ConditionsText\", \"ConditionsKitTesting\"], path: \"Plugins/Buoys/Tests\", exclude: [\"Resources\"]),",
        ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["Package.swift", "Plugins", "Sources", "scripts"])
    }

    @Test func refusesBadNamesAndExistingModulesWithoutWritingAnything() async throws {
        let folder = try Self.skeleton()
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = try text(folder.appendingPathComponent("Package.swift"))
        let cases: [([String], String)] = [
            (["tides"], "\"tides\" is not an UpperCamelCase name"),
            (["Tide_Tables"], "is not an UpperCamelCase name"),
            (["Tides", "Tide"], "\"Tide\" is not a URN scheme"),
            (["Tides", "tide:x"], "is not a URN scheme"),
            (["TidesTests"], "ends in Tests"),
            (["Foundation"], "\"Foundation\" is the name of an existing module"),
            (["Exec"], "already has a target named Exec"),
            ([], "usage: scripts/new-source [--http] Name [scheme]"),
            (["--htp", "Tides"], "unknown option \"--htp\""),
            (["--http"], "usage: scripts/new-source [--http] Name [scheme]"),
        ]
        for (arguments, message) in cases {
            let run = try await Self.newSource(arguments, in: folder)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Plugins/Tides"), withIntermediateDirectories: true)
        let existing = try await Self.newSource(["Tides"], in: folder)
        #expect(existing.status == 2)
        #expect(existing.stderr.contains("Plugins/Tides already exists"))
        #expect(try text(folder.appendingPathComponent("Package.swift")) == package)
    }

    /// Where a line would go is found by what is there; a file without it is refused untouched.
    @Test func refusesWhenItCannotTellWhereALineGoes() async throws {
        let folder = try Self.skeleton()
        defer { try? FileManager.default.removeItem(at: folder) }
        let packageFile = folder.appendingPathComponent("Package.swift")
        let package = try text(packageFile).replacingOccurrences(of: "name: \"ConditionsModules\"", with: "name: \"Registered\"")
        try Data(package.utf8).write(to: packageFile)
        let run = try await Self.newSource(["Tides"], in: folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains("Package.swift has no ConditionsModules target with a dependencies list to add Tides to"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Plugins/Tides").path))
        #expect(try text(packageFile) == package)

        let registryFile = folder.appendingPathComponent("Sources/ConditionsModules/RegisteredModules.swift")
        try Data(try text(packageFile).replacingOccurrences(of: "name: \"Registered\"", with: "name: \"ConditionsModules\"").utf8).write(to: packageFile)
        let registry = try text(registryFile).replacingOccurrences(of: "public static let all", with: "public static let every")
        try Data(registry.utf8).write(to: registryFile)
        let second = try await Self.newSource(["Tides"], in: folder)
        #expect(second.status == 2)
        #expect(second.stderr.contains("must have its imports and the list"), "\(second.stderr)")
        #expect(try text(registryFile) == registry)
    }

    /// The `swift` driver: the one on PATH, else the toolchain's usual place.
    static var swift: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/swift" } + ["/opt/swift/usr/bin/swift"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The plugin the end-to-end run removes, and how many lines of each file name it.
    static let removed = "SpaceWeather"

    /// Removing a plugin is the scaffold's inverse: its folder, and the lines naming it in
    /// Package.swift (its target with its comment, its tests, its stand-in, its end-to-end
    /// tests, its dependency of ConditionsModules) and RegisteredModules.swift (its import and
    /// its type). Nothing else in the tree may need it to build (the run below proves that).
    @Test func aPluginsLinesAreTheOnesNamingIt() throws {
        let naming = { (file: String) in
            try self.text(CLI.packageRoot.appendingPathComponent(file)).split(separator: "\n").filter { $0.contains(Self.removed) }
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let package = try naming("Package.swift")
        #expect(package.count == 6, "\(package)")
        #expect(package.filter { $0.hasPrefix(".target(name: \"\(Self.removed)") || $0.hasPrefix(".testTarget(name: \"\(Self.removed)") }.count == 4, "\(package)")
        #expect(package.contains("\"\(Self.removed)\","), "its dependency of ConditionsModules")
        #expect(try naming("Sources/ConditionsModules/RegisteredModules.swift") == ["import \(Self.removed)", "\(Self.removed)Source.self,"])
    }

    /// Both shapes, plain (Tides) and `--http` (Buoys), are scaffolded, built and tested at
    /// once, in a tree from which a shipped plugin (SpaceWeather) was removed as a maintainer
    /// would: its folder and the lines naming it in Package.swift and RegisteredModules.swift,
    /// nothing else. The package, its tests included, still builds; the program lists no such
    /// module and answers the rest. Buoys then answers from a loopback server standing in for
    /// its API.
    ///
    /// The scaffold, build and test run in a private mount namespace (in a user namespace of
    /// its own, so no privilege is needed) where an overlay covers the checkout: the nested `swift build` sees the checkout's own `.build` at its own
    /// paths, so it compiles only what the new module changes instead of the whole package
    /// and its dependencies (minutes, BoringSSL included). Every write lands in the overlay's
    /// upper folder; the checkout, and the suite running from it, never see them.
    @Test(.timeLimit(.minutes(20))) func aScaffoldedModuleBuildsPassesItsTestsAndAnswersOnceRouted() async throws {
        let swift = try #require(Self.swift, "no swift driver on PATH or in /opt/swift")
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let upper = folder.appendingPathComponent("upper"), work = folder.appendingPathComponent("work")
        for made in [upper, work] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        let root = CLI.packageRoot.path
        // At the suite's own priority: at the lowest, any other load on the machine (another
        // build beside CI) starved it past its time limit.
        let scaffoldScript = """
            set -e
            # userxattr: its own attributes in the user namespace, so a folder of the checkout can be removed.
            mount -t overlay overlay -o lowerdir="$1",upperdir="$2",workdir="$3",userxattr "$1"
            cd "$1"
            # SwiftPM locks a build folder with a file named after its path in $TMPDIR; the
            # suite's own `swift test` holds the checkout's for as long as it runs.
            export TMPDIR="$5/tmp"
            mkdir -p "$TMPDIR"
            bash scripts/new-source Tides tide >/dev/null
            bash scripts/new-source --http Buoys buoy >/dev/null
            rm -rf "Plugins/$6"
            sed -i "/$6/d" Package.swift Sources/ConditionsModules/RegisteredModules.swift
            "$4" build --build-tests >"$5/build.log" 2>&1 || { tail -n 60 "$5/build.log"; exit 1; }
            "$4" test --skip-build --filter 'TidesTests|BuoysTests' >"$5/test.log" 2>&1 || { tail -n 60 "$5/test.log"; exit 1; }
            cat "$5/test.log"
            """
        let scaffold = try await Self.run("/usr/bin/unshare", ["--map-root-user", "--mount", "--propagation", "private", "/bin/sh", "-c", scaffoldScript, "sh", root, upper.path, work.path, swift, folder.path, Self.removed],
                                          in: folder, timeout: 1200)
        try #require(scaffold.status == 0, "the scaffold's build or test failed:\n\(scaffold.stdout.suffix(6000))\(scaffold.stderr.suffix(2000))")
        #expect(scaffold.stdout.contains("Test run with 12 tests in 2 suites passed"), "\(scaffold.stdout.suffix(3000))")
        #expect(!FileManager.default.fileExists(atPath: CLI.packageRoot.appendingPathComponent("Plugins/Tides").path), "the checkout is untouched")
        #expect(FileManager.default.fileExists(atPath: upper.appendingPathComponent("Plugins/Tides/Sources/TidesSource.swift").path))

        try Data(#"""
            {
              "location": { "name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles" },
              "sources": { "tides": { "module": "Tides", "options": { "greeting": "high water at" } } },
              "routes": { "tide": "tides" }
            }
            """#.utf8).write(to: folder.appendingPathComponent("tides.json"))
        // The rebuilt binary is a new file, so it lives in the upper folder.
        let built = CLI.packageRoot.appendingPathComponent(".build/debug/conditions").resolvingSymlinksInPath().path
        let binary = upper.path + built.dropFirst(root.count)
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no rebuilt conditions at \(binary)")
        let resolved = try await Self.runConditions(binary, ["--config", "tides.json", "--now", "2026-11-21T14:00:00Z", "--format", "ndjson", "tide:seattle", "tide:a.b"], in: folder, timeout: 60)
        #expect(resolved.status == 1)
        let lines = resolved.stdoutLines
        try #require(lines.count == 2, "\(resolved.stdout)\(resolved.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(answer["route"] as? String == "tide:{id}")
        #expect(answer["source"] as? String == "tides")
        let data = try #require(answer["data"] as? [String: Any])
        #expect(data["message"] as? String == "high water at, seattle")
        #expect(data["asOf"] as? String == "2026-11-21T14:00:00Z")
        let refusal = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect((refusal["error"] as? [String: Any])?["kind"] as? String == "invalidArguments")

        let sources = try await Self.runConditions(binary, ["sources", "--config", "tides.json"], in: folder, timeout: 60)
        #expect(sources.stdout.contains("Tides"))

        // The removed plugin is gone and the rest works: the built-in default (which routes
        // `aurora` to it) loads without it, lists no such module, and answers what is left.
        let builtIn = try await Self.runConditions(binary, ["sources"], in: folder, timeout: 60)
        #expect(builtIn.status == 0, "\(builtIn.stderr)")
        #expect(builtIn.stdout.contains("Tides") && builtIn.stdout.contains("Astronomy") && !builtIn.stdout.contains(Self.removed), "\(builtIn.stdout)")
        let help = try await Self.runConditions(binary, ["--help"], in: folder, timeout: 60)
        #expect(help.status == 0 && help.stdout.contains("moon:") && !help.stdout.contains("aurora:"), "\(help.stdout)\(help.stderr)")
        let rest = try await Self.runConditions(binary, ["--now", "2026-11-21T14:00:00Z", "--format", "ndjson", "moon:now", "aurora:now"], in: folder, timeout: 60)
        let answers = rest.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(answers.count == 2, "\(rest.stdout)\(rest.stderr)")
        #expect(answers[0]["source"] as? String == "astronomy", "\(answers[0])")
        #expect(answers[1]["error"] != nil, "aurora: has no route left: \(answers[1])")

        // Each sample is compiled in: `config init --module` prints the file the scaffold wrote.
        for module in ["Tides", "Buoys"] {
            let sample = try await Self.runConditions(binary, ["config", "init", "--module", module], in: folder, timeout: 60)
            #expect(sample.status == 0, "\(sample.stderr)")
            #expect(sample.stdout == (try text(upper.appendingPathComponent("Plugins/\(module)/sample.json"))))
        }

        // The HTTP shape answers from its API: a loopback server serving the recorded document.
        let api = LoopbackServer()
        api.route("/buoy/harbor-7.json", LoopbackServer.Response(headers: ["Content-Type": "application/json", "Cache-Control": "max-age=120"],
                                                                   body: try Data(contentsOf: upper.appendingPathComponent("Plugins/Buoys/Tests/Resources/harbor-7.json"))))
        try api.start()
        defer { api.stop() }
        try Data("""
            {
              "location": { "name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles" },
              "sources": { "buoy": { "module": "Buoys", "options": { "baseURL": "\(api.url("/buoy").absoluteString)" } } },
              "routes": { "buoy": "buoy" }
            }
            """.utf8).write(to: folder.appendingPathComponent("buoys.json"))
        let buoy = try await Self.runConditions(binary, ["--config", "buoys.json", "--format", "ndjson", "buoy:harbor-7", "buoy:harbor-9"], in: folder, timeout: 60)
        #expect(buoy.status == 1, "\(buoy.stderr)")
        let buoyLines = buoy.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(buoyLines.count == 2, "\(buoy.stdout)\(buoy.stderr)")
        let reading = try #require(buoyLines[0]["data"] as? [String: Any])
        #expect(reading["name"] as? String == "Harbor 7")
        #expect(reading["value"] as? Double == 2.4)
        #expect(reading["observedAt"] as? String == "2026-11-21T13:30:00Z")
        #expect((buoyLines[1]["error"] as? [String: Any])?["kind"] as? String == "http", "a 404 from the API: \(buoyLines[1])")
        #expect(api.requestCount("/buoy/harbor-7.json") == 1)

        // Text reads through the module's own presentation, not as generic key/value lines.
        let text = try await Self.runConditions(binary, ["--config", "tides.json", "--now", "2026-11-21T14:00:00Z", "tide:seattle"], in: folder,
                                environment: ["NO_COLOR": "1"], timeout: 60)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "tide:seattle  high water at, seattle (as of Sat Nov 21 06:00 PST)\n")

        // `watch` compares the presentation's change key: asOf moves every poll (the clock is
        // not pinned) but the message does not, so three polls print the initial state only.
        let watch = try await Self.runConditions(binary, ["watch", "--config", "tides.json", "--every", "1", "--count", "3", "--format", "ndjson", "tide:seattle"],
                                 in: folder, timeout: 60)
        #expect(watch.status == 0, "\(watch.stderr)")
        let events = watch.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.map { $0["event"] as? String } == ["initial"], "\(watch.stdout)")
        #expect(events.first?["after"] as? String == "high water at, seattle")

        // A change the presentation cares about is announced, one it ignores is not: replayed
        // `tide` results (a Fixtures instance under the same scheme, so the same kind) whose
        // file changes under a running watch, first only in asOf, then in message. Each step
        // waits for watch rather than for a guessed time: the asOf change once the initial line
        // is out, the message change once a poll begun after it (the resolver's debug line comes
        // before the read) has ended, which the next poll's line shows; watch is stopped once
        // the change is out.
        let recorded = folder.appendingPathComponent("recorded/tide")
        try FileManager.default.createDirectory(at: recorded, withIntermediateDirectories: true)
        func record(_ message: String, _ asOf: String) -> String {
            #"{"urn":"tide:seattle","data":{"id":"seattle","message":"\#(message)","length":7,"place":"Seattle","asOf":"\#(asOf)"}}"#
        }
        try Data(record("low water at, seattle", "2026-11-21T14:00:00Z").utf8).write(to: recorded.appendingPathComponent("seattle.json"))
        try Data(#"""
            {
              "location": { "name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles" },
              "sources": { "recorded": { "module": "Fixtures", "options": { "directory": "recorded" } } },
              "routes": { "tide": "recorded" }
            }
            """#.utf8).write(to: folder.appendingPathComponent("replay.json"))
        let script = """
            waitfor() { until "$@"; do kill -0 "$watch" || exit 1; sleep 0.05; done; }
            polls() { grep -c 'resolving tide:seattle' replay.err; }
            polled() { [ "$(polls)" -ge "$1" ]; }
            "$0" watch -vv --config replay.json --every 1 --format ndjson tide:seattle > replay.out 2> replay.err &
            watch=$!
            waitfor grep -q '"event":"initial"' replay.out
            printf '%s' '\(record("low water at, seattle", "2026-11-21T15:00:00Z"))' > recorded/tide/seattle.json.new && mv recorded/tide/seattle.json.new recorded/tide/seattle.json
            n=$(polls)
            waitfor polled $((n + 2))
            printf '%s' '\(record("high water at, seattle", "2026-11-21T15:00:00Z"))' > recorded/tide/seattle.json.new && mv recorded/tide/seattle.json.new recorded/tide/seattle.json
            waitfor grep -q '"event":"change"' replay.out
            kill -TERM "$watch"; wait "$watch"; status=$?
            cat replay.out; cat replay.err >&2
            exit $status
            """
        let replayed = try await Self.runConditions("/bin/sh", ["-c", script, binary], in: folder, timeout: 60)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let changes = replayed.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(changes.map { "\($0["event"] ?? ""): \($0["after"] ?? "")" } == ["initial: low water at, seattle", "change: high water at, seattle"], "\(replayed.stdout)")
        let replayText = try await Self.runConditions(binary, ["--config", "replay.json", "tide:seattle"], in: folder, environment: ["NO_COLOR": "1"], timeout: 60)
        #expect(replayText.stdout == "tide:seattle  high water at, seattle (as of Sat Nov 21 07:00 PST)\n")
    }
}
