import ConditionsCore
import ConditionsJSON
import Foundation
import HostTestSupport
import Testing

/// Which config is used (docs/configuration.md): --config, $CONDITIONS_CONFIG, ./sources.json,
/// $XDG_CONFIG_HOME/conditions/sources.json, /etc/conditions/sources.json, else the built-in default.
@Suite struct ConfigLookupTests {
    /// A folder with the candidates `present` (keys: "cwd", "xdg", "system") holding a config.
    func layout(_ present: Set<String>) throws -> (root: URL, cwd: URL, environment: [String: String], system: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lookup-\(UUID().uuidString)")
        let cwd = root.appendingPathComponent("cwd")
        let xdg = root.appendingPathComponent("xdg/conditions")
        let system = root.appendingPathComponent("etc/conditions/sources.json")
        for folder in [cwd, xdg, system.deletingLastPathComponent()] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        if present.contains("cwd") { try Data("{}".utf8).write(to: cwd.appendingPathComponent("sources.json")) }
        if present.contains("xdg") { try Data("{}".utf8).write(to: xdg.appendingPathComponent("sources.json")) }
        if present.contains("system") { try Data("{}".utf8).write(to: system) }
        return (root, cwd, ["HOME": root.path, "XDG_CONFIG_HOME": root.appendingPathComponent("xdg").path], system)
    }

    @Test func eachCandidateInTurnThenTheBuiltInDefault() throws {
        let cases: [(Set<String>, String?)] = [
            (["cwd", "xdg", "system"], "cwd/sources.json"), (["xdg", "system"], "xdg/conditions/sources.json"),
            (["system"], "etc/conditions/sources.json"), ([], nil),
        ]
        for (present, expected) in cases {
            let (root, cwd, environment, system) = try layout(present)
            defer { try? FileManager.default.removeItem(at: root) }
            let found = try ConfigFile.locate(explicit: nil, environment: environment, currentDirectory: cwd.path, systemFile: system)
            #expect(found?.path == expected.map { root.appendingPathComponent($0).path }, "\(present)")
        }
    }

    @Test func anExplicitConfigMustExistAndWins() throws {
        let (root, cwd, environment, system) = try layout(["cwd"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(throws: ConfigurationError.self) { try ConfigFile.locate(explicit: "absent.json", environment: environment, currentDirectory: cwd.path, systemFile: system) }
        var withVariable = environment
        withVariable["CONDITIONS_CONFIG"] = root.appendingPathComponent("xdg").path
        #expect(throws: ConfigurationError.self) { try ConfigFile.locate(explicit: nil, environment: withVariable, currentDirectory: cwd.path, systemFile: system) }
        try Data("{}".utf8).write(to: root.appendingPathComponent("mine.json"))
        withVariable["CONDITIONS_CONFIG"] = root.appendingPathComponent("mine.json").path
        #expect(try ConfigFile.locate(explicit: nil, environment: withVariable, currentDirectory: cwd.path, systemFile: system)?.lastPathComponent == "mine.json")
    }

    @Test func theBuiltInDefaultIsNamedSoAndResolvesAgainstItsFolder() throws {
        let file = try ConfigFile.builtIn(Data(#"{"location": {"latitude": 1, "longitude": 2}}"#.utf8), directory: URL(fileURLWithPath: "/opt/c/share/conditions"))
        #expect(file.isBuiltIn && file.name == "built-in config")
        #expect(file.directory.path == "/opt/c/share/conditions")
        let broken = #expect(throws: ConfigurationError.self) { try ConfigFile.builtIn(Data("{".utf8), directory: URL(fileURLWithPath: "/x")) }
        #expect(broken?.description.hasPrefix("built-in config:1:2: invalid JSON") == true)
    }

    /// A program built without a plugin runs its built-in default as the rest: the sources of
    /// modules it does not link are left out, with their routes (a chain keeps the others).
    @Test func theBuiltInDefaultKeepsOnlyTheLinkedModules() throws {
        let text = #"{"sources": {"a": {"module": "A"}, "b": {"module": "B"}, "c": {"module": "C"}}, "#
            + #""routes": {"x": "a", "y": ["b", "a"], "z": "b", "w": ["b"]}, "#
            + #""profiles": {"p": {"routes": {"x": "b", "z": "c"}}, "q": {"location": {"name": "Q"}}}, "report": ["x:1", "z:1"]}"#
        let file = try ConfigFile.builtIn(Data(text.utf8), directory: URL(fileURLWithPath: "/x")).keepingOnly(modules: ["A", "C"])
        #expect(file.root["sources"]?.objectValue?.keys == ["a", "c"])
        #expect(file.root["routes"] == .object(JSONObject([("x", .string("a")), ("y", .array([.string("a")]))])))
        #expect(file.root["profiles"]?["p"]?["routes"] == .object(JSONObject([("z", .string("c"))])))
        #expect(file.root["profiles"]?["q"]?["location"]?["name"] == .string("Q"))
        #expect(file.root["report"] == .array([.string("x:1"), .string("z:1")]), "the report is left as written")
        #expect(file.isBuiltIn)
        let whole = try ConfigFile.builtIn(Data(text.utf8), directory: URL(fileURLWithPath: "/x"))
        #expect(whole.keepingOnly(modules: ["A", "B", "C"]).root == whole.root)
    }
}
