import Foundation
import TestHarness
import Testing

/// The DocC catalog (`Sources/ConditionsKit/ConditionsKit.docc`) shows only code that compiles
/// and passes: each `swift` block of its articles is a whole file of `Tests/DocCSnippets` (the
/// modules `DocCTides` and `DocCOuting`, which the articles call `Tides` and `Outing`) or of
/// this test target, which runs them. And the catalog builds with no warning, with the
/// toolchain's own `swift-symbolgraph-extract` and `docc`, as
/// `swift package generate-documentation --target ConditionsKit` builds it (about 4 s here; the
/// plugin cannot run inside the suite, whose `swift test` holds the build folder's lock).
@Suite struct DocCCatalogTests {
    static let root = CLI.packageRoot
    static let catalog = root.appendingPathComponent("Sources/ConditionsKit/ConditionsKit.docc")

    /// Each article's `swift` blocks, in order, as the files they are.
    static let snippets: [String: [String]] = [
        "ConditionsKit.md": [],
        "GettingStarted.md": ["Tests/DocCSnippets/Tides/TidesSource.swift", "Tests/DocCSnippets/Tides/TidePresentation.swift",
                              "Tests/DocCSnippetTests/TidesSourceTests.swift"],
        "CombiningSources.md": ["Tests/DocCSnippets/Outing/OutingSource.swift", "Tests/DocCSnippetTests/OutingTests.swift"],
    ]

    /// The compiled modules' names, and what the articles call them.
    static let articleModuleNames = ["DocCTides": "Tides", "DocCOuting": "Outing"]

    /// A file of the repository as an article shows it: the modules under their articles' names.
    static func shown(_ path: String) throws -> String {
        var text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        for (compiled, shown) in articleModuleNames {
            text = text.replacingOccurrences(of: "import \(compiled)\n", with: "import \(shown)\n")
        }
        return text
    }

    /// The fenced code blocks of `markdown` whose info string is `language`, each with its final newline.
    static func blocks(_ language: String, in markdown: String) -> [String] {
        var blocks: [String] = [], current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.hasPrefix("```") {
                current = line.dropFirst(3).trimmingCharacters(in: .whitespaces) == language ? [] : nil
                if current == nil { current = ["\u{0}"] }   // another language: skipped to its end
            } else if current != nil, line.hasPrefix("```") {
                if current?.first != "\u{0}" { blocks.append(current!.map { "\($0)\n" }.joined()) }
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func article(_ name: String) throws -> String {
        try String(contentsOf: catalog.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func everyArticleIsChecked() throws {
        let articles = try FileManager.default.contentsOfDirectory(atPath: Self.catalog.path).filter { $0.hasSuffix(".md") }
        #expect(Set(articles) == Set(Self.snippets.keys))
    }

    @Test(arguments: snippets.keys.sorted()) func eachSwiftBlockIsACompiledFile(_ name: String) throws {
        let shown = Self.blocks("swift", in: try Self.article(name))
        let files = try #require(Self.snippets[name])
        #expect(shown.count == files.count, "\(name) has \(shown.count) swift blocks; the test knows \(files.count)")
        for (block, file) in zip(shown, files) {
            #expect(block == (try Self.shown(file)), "a swift block of \(name) is not \(file) as it is")
        }
    }

    @Test func everySnippetIsShown() throws {
        let shown = Set(Self.snippets.values.joined())
        for folder in ["Tests/DocCSnippets", "Tests/DocCSnippetTests"] {
            let files = try FileManager.default.subpathsOfDirectory(atPath: Self.root.appendingPathComponent(folder).path)
            for file in files where file.hasSuffix(".swift") && file != "DocCCatalogTests.swift" {
                #expect(shown.contains("\(folder)/\(file)"), "\(folder)/\(file) is in no article")
            }
        }
    }

    /// The tutorial's module compiles in its `sample.json`, which its route section shows.
    @Test func theTutorialShowsItsSampleConfig() throws {
        let sample = try Self.shown("Tests/DocCSnippets/Tides/sample.json")
        #expect(Self.blocks("json", in: try Self.article("GettingStarted.md")).contains(sample))
    }

    @Test func theBlockReaderReadsFences() {
        let markdown = "text\n```swift\nlet a = 1\n\nlet b = 2\n```\n```json\n{}\n```\n```\nplain\n```\n```swift\nx\n```\n"
        #expect(Self.blocks("swift", in: markdown) == ["let a = 1\n\nlet b = 2\n", "x\n"])
        #expect(Self.blocks("json", in: markdown) == ["{}\n"])
    }

    /// The toolchain program `name`: on PATH, else beside the `swift` driver's usual place.
    static func tool(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/\(name)" } + ["/opt/swift/usr/bin/\(name)"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }

    /// The build folder this test runs from (`.build/<triple>/debug`), which holds ConditionsKit's module.
    static func buildFolder() throws -> URL {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Modules/ConditionsKit.swiftmodule").path) {
            guard folder.path != "/" else { throw CatalogError(description: "no Modules/ConditionsKit.swiftmodule above the test runner") }
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }

    struct CatalogError: Error, CustomStringConvertible {
        let description: String
    }

    @Test(.timeLimit(.minutes(5))) func theCatalogBuildsWithNoWarning() async throws {
        let extract = try #require(Self.tool("swift-symbolgraph-extract"), "no swift-symbolgraph-extract on PATH or in /opt/swift")
        let docc = try #require(Self.tool("docc"), "no docc on PATH or in /opt/swift")
        let build = try Self.buildFolder()
        let triple = build.deletingLastPathComponent().lastPathComponent
        try #require(triple.split(separator: "-").count >= 3, "the build folder \(build.path) is not .build/<triple>/<configuration>")
        let work = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let graphs = work.appendingPathComponent("symbol-graphs"), archive = work.appendingPathComponent("ConditionsKit.doccarchive")
        try FileManager.default.createDirectory(at: graphs, withIntermediateDirectories: true)
        let environment = ["PATH": "/usr/bin:/bin", "HOME": work.path]

        // The symbol graph the plugin asks SwiftPM for: public symbols, synthesized members, extension blocks.
        let symbols = try await CLI.runProgram(extract, [
            "-module-name", "ConditionsKit", "-target", triple, "-I", build.appendingPathComponent("Modules").path,
            "-minimum-access-level", "public", "-emit-extension-block-symbols", "-output-dir", graphs.path,
        ], in: work, environment: environment, timeout: 240)
        try #require(symbols.status == 0, "swift-symbolgraph-extract failed:\n\(symbols.stderr)")

        let converted = try await CLI.runProgram(docc, [
            "convert", Self.catalog.path, "--additional-symbol-graph-dir", graphs.path, "--output-dir", archive.path,
            "--fallback-display-name", "ConditionsKit", "--fallback-bundle-identifier", "ConditionsKit",
            "--fallback-default-module-kind", "Framework",
        ], in: work, environment: environment, timeout: 240)
        #expect(converted.status == 0)
        let said = (converted.stdout + converted.stderr).split(separator: "\n").filter { $0.contains("warning:") || $0.contains("error:") }
        #expect(said.isEmpty, "docc says:\n\(converted.stderr)\(converted.stdout)")
        // The articles are pages of the archive (a catalog docc did not find would build silently without them).
        for page in ["gettingstarted", "combiningsources"] {
            let json = archive.appendingPathComponent("data/documentation/conditionskit/\(page).json")
            #expect(FileManager.default.fileExists(atPath: json.path), "no \(page) page in the archive")
        }
    }
}
