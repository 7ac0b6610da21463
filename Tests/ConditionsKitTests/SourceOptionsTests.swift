import ConditionsJSON
import Foundation
import Testing
@testable import ConditionsKit

/// Typed option accessors: values, type errors naming the JSON path, unknown-key reports, paths.
@Suite struct SourceOptionsTests {
    private let base = URL(fileURLWithPath: "/etc/conditions")

    private func options(_ object: JSONValue) -> SourceOptions {
        SourceOptions(path: "sources.x.options", object: object.objectValue ?? JSONObject(), baseDirectory: base)
    }

    @Test func typedAccessors() throws {
        var options = options([
            "mode": "live", "count": 5, "ratio": 0.5, "whole": 3.0, "enabled": false,
            "names": ["a", "b"], "http": ["timeout": 20], "nothing": nil,
        ])
        #expect(try options.string("mode") == "live")
        #expect(try options.int("count") == 5)
        #expect(try options.int("whole") == 3)
        #expect(try options.double("ratio") == 0.5)
        #expect(try options.double("count") == 5.0)
        #expect(try options.bool("enabled") == false)
        #expect(try options.strings("names") == ["a", "b"])
        #expect(try options.string("nothing") == nil)
        #expect(try options.string("absent") == nil)
        #expect(try options.int("absent") == nil)
        #expect(options.value("http")?["timeout"] == .int(20))
        var http = try #require(try options.object("http"))
        #expect(http.path == "sources.x.options.http")
        #expect(http.baseDirectory == base)
        #expect(try http.double("timeout") == 20)
        try http.finish()
        try options.finish()
    }

    @Test(arguments: [
        ("mode", JSONValue.int(3), "sources.x.options.mode: expected a string, found number"),
        ("count", "5", "sources.x.options.count: expected a whole number, found string"),
        ("count", 2.5, "sources.x.options.count: expected a whole number, found number"),
        ("ratio", true, "sources.x.options.ratio: expected a number, found boolean"),
        ("enabled", "yes", "sources.x.options.enabled: expected true or false, found string"),
        ("names", "a", "sources.x.options.names: expected an array of strings, found string"),
        ("names", ["a", 1], "sources.x.options.names[1]: expected a string, found number"),
        ("http", [1], "sources.x.options.http: expected an object, found array"),
        ("directory", [:], "sources.x.options.directory: expected a string, found object"),
    ] as [(String, JSONValue, String)])
    func typeErrorsNameTheFullPath(key: String, value: JSONValue, message: String) {
        var options = options(.object(JSONObject([(key, value)])))
        let error = #expect(throws: ConditionsError.self) {
            switch key {
            case "mode": _ = try options.string(key)
            case "count": _ = try options.int(key)
            case "ratio": _ = try options.double(key)
            case "enabled": _ = try options.bool(key)
            case "names": _ = try options.strings(key)
            case "http": _ = try options.object(key)
            default: _ = try options.path(key)
            }
        }
        #expect(error?.kind == .configuration)
        #expect(error?.message == message)
    }

    @Test func nestedObjectErrorsNameTheNestedPath() throws {
        var options = options(["http": ["timeout": "soon", "retries": 1]])
        var http = try #require(try options.object("http"))
        let error = #expect(throws: ConditionsError.self) { try http.double("timeout") }
        #expect(error?.message == "sources.x.options.http.timeout: expected a number, found string")
        let unknown = #expect(throws: ConditionsError.self) { try http.finish() }
        #expect(unknown?.message.contains("sources.x.options.http.retries") == true)
    }

    @Test func oneOf() throws {
        var options = options(["mode": "fast"])
        #expect(try options.string("absent", oneOf: ["live", "fixture"]) == nil)
        let error = #expect(throws: ConditionsError.self) { try options.string("mode", oneOf: ["live", "fixture"]) }
        #expect(error?.message == #"sources.x.options.mode: "fast" is not one of "live", "fixture""#)
        var good = self.options(["mode": "live"])
        #expect(try good.string("mode", oneOf: ["live", "fixture"]) == "live")
    }

    @Test func intRange() throws {
        var options = options(["count": 0, "big": 101, "ok": 100])
        let low = #expect(throws: ConditionsError.self) { try options.int("count", in: 1...100) }
        #expect(low?.message == "sources.x.options.count: 0 is outside 1…100")
        let high = #expect(throws: ConditionsError.self) { try options.int("big", in: 1...100) }
        #expect(high?.message == "sources.x.options.big: 101 is outside 1…100")
        #expect(try options.int("ok", in: 1...100) == 100)
    }

    @Test func doubleRange() {
        var options = options(["timeout": -1])
        let error = #expect(throws: ConditionsError.self) { try options.double("timeout", in: 0...600) }
        #expect(error?.kind == .configuration)
        #expect(error?.message.hasPrefix("sources.x.options.timeout: -1") == true)
    }

    @Test func finishReportsUnknownKeyWithSuggestion() throws {
        var options = options(["directory": "Fixtures", "recursve": true])
        _ = try options.path("directory")
        _ = try options.bool("recursive")
        let error = #expect(throws: ConditionsError.self) { try options.finish() }
        #expect(error?.kind == .configuration)
        #expect(error?.message == #"unknown option sources.x.options.recursve (did you mean "recursive"?); known: directory, recursive"#)
    }

    @Test func finishReportsEveryUnknownKey() throws {
        var options = options(["mode": "live", "zzz": 1, "moed": "x"])
        _ = try options.string("mode")
        let error = #expect(throws: ConditionsError.self) { try options.finish() }
        #expect(error?.message == #"unknown options sources.x.options.zzz, sources.x.options.moed (did you mean "mode"?); known: mode"#)
    }

    @Test func finishForAModuleWithoutOptions() {
        let error = #expect(throws: ConditionsError.self) { try options(["anything": 1]).finish() }
        #expect(error?.message == "unknown option sources.x.options.anything; this module takes no options")
    }

    @Test func finishPassesWhenEveryKeyWasRead() throws {
        var options = options(["a": 1, "b": nil])
        _ = options.value("a")
        _ = try options.string("b")
        try options.finish()
        try self.options([:]).finish()
    }

    @Test func pathsResolveAgainstTheBaseDirectory() throws {
        var options = options(["rel": "Fixtures", "up": "../data/x.json", "dot": "./a/./b", "abs": "/var/lib/conditions", "absDots": "/var/lib/../tmp", "home": "~/fixtures", "empty": ""])
        #expect(try options.path("rel")?.path == "/etc/conditions/Fixtures")
        #expect(try options.path("up")?.path == "/etc/data/x.json")
        #expect(try options.path("dot")?.path == "/etc/conditions/a/b")
        #expect(try options.path("abs")?.path == "/var/lib/conditions")
        #expect(try options.path("absDots")?.path == "/var/tmp")
        #expect(try options.path("home")?.path == FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("fixtures").standardizedFileURL.path)
        #expect(try options.path("absent") == nil)
        let error = #expect(throws: ConditionsError.self) { try options.path("empty") }
        #expect(error?.message == "sources.x.options.empty: the path is empty")
    }

    @Test func aRelativePathFoundOnlyInTheDataDirectoryResolvesThere() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("data-dir-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let config = root.appendingPathComponent("etc/conditions")
        let data = root.appendingPathComponent("usr/share/conditions")
        for folder in [config.appendingPathComponent("Mine"), data.appendingPathComponent("Fixtures"), data.appendingPathComponent("Mine")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        var options = SourceOptions(path: "sources.x.options", object: JSONObject([("recordings", "Fixtures"), ("own", "Mine"), ("absent", "Nowhere")]),
                                    baseDirectory: config, dataDirectory: data)
        // Only installed beside the program: found there, as a copy of the default needs.
        #expect(try options.path("recordings")?.path == data.appendingPathComponent("Fixtures").path)
        // The config's folder wins when it has it.
        #expect(try options.path("own")?.path == config.appendingPathComponent("Mine").path)
        // Nowhere: the config-relative path, which the module's error names.
        #expect(try options.path("absent")?.path == config.appendingPathComponent("Nowhere").path)
    }
}
