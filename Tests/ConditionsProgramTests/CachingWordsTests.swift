import Foundation
import Testing

/// Caching is explained once, in docs/caching.md, with one name per layer and one word per
/// way of keeping: the README and the architecture page name every layer as it does, and no
/// doc speaks of lifetimes, time-to-live or coalescing in other words (code names in
/// backticks aside; docs/performance.md is a log of what was measured when, in the words of
/// its day).
@Suite struct CachingWordsTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The layers docs/caching.md's table names, as `[name](#anchor)` in its first column.
    static func layers() throws -> [String] {
        try text("docs/caching.md").split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^\| \[([a-z ]+)\]\(#[a-z-]+\) \|/).map { String($0.output.1) }
        }
    }

    /// `markdown` without its code, line for line: fenced blocks and `inline code` blanked.
    static func prose(_ markdown: String) -> String {
        var fenced = false
        return markdown.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("```") || line.hasPrefix("  ```") { fenced.toggle(); return "" }
            return fenced ? "" : String(line.replacing(/`[^`]*`/, with: ""))
        }.joined(separator: "\n")
    }

    /// Every doc a reader meets, but the one explanation and the measurement log.
    static func docs() throws -> [String] {
        let fm = FileManager.default
        let docs = try fm.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") && $0 != "caching.md" && $0 != "performance.md" }.map { "docs/\($0)" }
        let plugins = try fm.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Plugins").path)
            .map { "Plugins/\($0)/README.md" }.filter { fm.fileExists(atPath: packageRoot.appendingPathComponent($0).path) }
        let catalog = try fm.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Sources/ConditionsKit/ConditionsKit.docc").path)
            .filter { $0.hasSuffix(".md") }.map { "Sources/ConditionsKit/ConditionsKit.docc/\($0)" }
        return ["README.md"] + docs.sorted() + plugins.sorted() + catalog.sorted()
    }

    @Test func theExplanationHasEightLayers() throws {
        #expect(try Self.layers() == ["page memory", "answer memory", "result cache", "source memo", "module memory",
                                      "request sharing", "upstream documents", "fleet documents"])
    }

    @Test(arguments: ["README.md", "docs/architecture.md"]) func theShortFormsNameEveryLayer(_ path: String) throws {
        let text = try Self.text(path)
        for layer in try Self.layers() {
            #expect(text.contains("**\(layer)**"), "\(path) does not name the \(layer) (as **\(layer)**)")
        }
        #expect(text.contains("caching.md"), "\(path) does not link docs/caching.md")
    }

    @Test func noDocSaysItInOtherWords() throws {
        let retired = /(?i)\b(lifetimes?|time-to-live|coalesc\w*|mechanisms?)\b/
        for path in try Self.docs() {
            let prose = Self.prose(try Self.text(path))
            for (number, line) in zip(1..., prose.split(separator: "\n", omittingEmptySubsequences: false)) {
                if let found = line.firstMatch(of: retired) {
                    Issue.record("\(path):\(number) says \"\(found.output.0)\"; docs/caching.md's words are TTL, maxAge, keptUntil, run, process, request sharing")
                }
            }
        }
    }

    @Test func proseLeavesCodeOut() {
        #expect(Self.prose("a `pointLifetime` b\n```swift\nlet lifetime = 1\n```\nc") == "a  b\n\n\n\nc")
    }
}
