import ConditionsKit
import ConditionsModules
import Foundation
import Testing

/// The docs name every registered module, so adding a plugin without documenting it fails:
/// docs/architecture.md lists them in the order of `RegisteredModules.all`, and the README's
/// source table has a row for each, linking its README.
@Suite struct ModuleListTests {
    static let names = RegisteredModules.all.map { $0.moduleName }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines of `markdown` from the heading `heading` to the next heading of its level or higher.
    static func section(_ heading: String, of markdown: String) -> [Substring] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(heading)) else { return [] }
        let level = heading.prefix { $0 == "#" }.count
        let end = lines[(start + 1)...].firstIndex { line in
            let hashes = line.prefix { $0 == "#" }.count
            return hashes > 0 && hashes <= level && line.dropFirst(hashes).hasPrefix(" ")
        } ?? lines.endIndex
        return Array(lines[(start + 1)..<end])
    }

    /// The module names of the `[Name](…Plugins/Name/README.md)` links in `text`, in order.
    static func linkedModules(_ text: String) -> [String] {
        let pattern = /\[([A-Za-z0-9]+)\]\((?:\.\.\/)?Plugins\/([A-Za-z0-9]+)\/README\.md\)/
        return text.matches(of: pattern).compactMap { $0.output.1 == $0.output.2 ? String($0.output.1) : nil }
    }

    @Test func everyModuleHasItsFolderAndReadme() {
        for name in Self.names {
            #expect(FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("Plugins/\(name)/README.md").path),
                    "module \(name) has no Plugins/\(name)/README.md")
        }
    }

    @Test func theArchitecturePageListsEveryModuleInOrder() throws {
        let targets = Self.section("## Targets and dependencies", of: try Self.text("docs/architecture.md"))
        let plugins = targets.drop { !$0.hasPrefix("- **Plugins**") }.prefix { $0.hasPrefix("- **Plugins**") || $0.hasPrefix("  ") }
        #expect(Self.linkedModules(plugins.joined(separator: "\n")) == Self.names,
                "docs/architecture.md's Plugins list is not RegisteredModules.all: \(Self.names)")
    }

    @Test func theReadmeTableHasARowForEveryModule() throws {
        let rows = Self.section("## Source modules", of: try Self.text("README.md")).filter { $0.hasPrefix("| [") }
        let listed = rows.flatMap { Self.linkedModules(String($0.split(separator: "|").first ?? "")) }
        #expect(listed.count == rows.count, "a row of the README's source table names no module as [Name](Plugins/Name/README.md)")
        #expect(listed.sorted() == Self.names.sorted(), "the README's source table is not RegisteredModules.all: \(Self.names)")
    }

    @Test func theReadersFindWhatTheyShould() {
        #expect(Self.linkedModules("[A](../Plugins/A/README.md), [B](Plugins/B/README.md) [C](Plugins/D/README.md)") == ["A", "B"])
        let markdown = "# T\n## One\na\n### Sub\nb\n## Two\nc\n"
        #expect(Self.section("## One", of: markdown) == ["a", "### Sub", "b"])
        #expect(Self.section("## Two", of: markdown) == ["c", ""])
    }
}
