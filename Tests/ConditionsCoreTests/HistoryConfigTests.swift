import ConditionsKit
import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// The `history` object of sources.json: defaults, the XDG state folder, and problems that
/// name their JSON path.
@Suite struct HistoryConfigTests {
    static let base = #""location": {"latitude": 47.6, "longitude": -122.3}, "sources": {"a": {"module": "Echo"}}, "routes": {"echo": "a"}"#

    func load(_ history: String?) throws(ConfigurationError) -> (Runtime.ConfigurationSummary, URL) {
        let workspace = try! Workspace(config: "{\(Self.base)\(history.map { #", "history": \#($0)"# } ?? "")}")
        defer { workspace.remove() }
        return (try workspace.runtime().configuration, workspace.folder)
    }

    func problems(_ history: String) -> [String] {
        do {
            _ = try load(history)
            return []
        } catch {
            return error.problems.map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? $0 }
        }
    }

    @Test func defaultsAreTheStateFolderAnd180Days() throws {
        let (configuration, _) = try load(nil)
        #expect(configuration.history.path == nil)
        #expect(configuration.history.retain == 180 * 86400)
        #expect(configuration.history.enabled)
        let settings = configuration.history
        #expect(settings.file(environment: ["HOME": "/home/ana"]).path == "/home/ana/.local/state/conditions/history.sqlite")
        #expect(settings.file(environment: ["HOME": "/home/ana", "XDG_STATE_HOME": "/var/lib/ana"]).path == "/var/lib/ana/conditions/history.sqlite")
        // The spec says a relative XDG path is invalid and to be ignored.
        #expect(settings.file(environment: ["HOME": "/home/ana", "XDG_STATE_HOME": "state"]).path == "/home/ana/.local/state/conditions/history.sqlite")
    }

    @Test func pathIsRelativeToTheConfigAndRetainTakesDurations() throws {
        let (configuration, folder) = try load(#"{"path": "data/history.sqlite", "retain": "30d", "enabled": false}"#)
        #expect(configuration.history.path?.path == folder.appendingPathComponent("data/history.sqlite").standardizedFileURL.path)
        #expect(configuration.history.retain == 30 * 86400)
        #expect(!configuration.history.enabled)
        #expect(try load(#"{"retain": 7200}"#).0.history.retain == 7200)
    }

    @Test func problemsNameTheirJSONPath() {
        #expect(problems(#""forever""#) == ["history: expected an object, found string"])
        #expect(problems(#"{"retain": "soon"}"#) == [#"history.retain: expected a duration between 1h and 36500d such as "180d" or "12h", found "soon""#])
        #expect(problems(#"{"retain": "10m"}"#).first?.hasPrefix("history.retain: expected a duration between 1h") == true)
        #expect(problems(#"{"path": 3}"#).first?.hasPrefix("history.path: expected") == true, "\(problems(#"{"path": 3}"#))")
        #expect(problems(#"{"path": ""}"#) == ["history.path: the path is empty"])
        #expect(problems(#"{"path": "/var/lib/conditions/"}"#).first?.hasPrefix("history.path: \"/var/lib/conditions\" names a folder") == true,
                "\(problems(#"{"path": "/var/lib/conditions/"}"#))")
        #expect(problems(#"{"retian": "1d"}"#) == [#"unknown option history.retian (did you mean "retain"?); known: enabled, path, retain"#],
                "\(problems(#"{"retian": "1d"}"#))")
    }
}
