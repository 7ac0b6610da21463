import ConditionsKit
import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// The config loader in-process: problems with file, line and column, profiles, the catalog.
@Suite struct ConfigLoaderTests {
    func problems(_ config: String, profile: String? = nil) throws -> [String] {
        let workspace = try Workspace(config: config)
        defer { workspace.remove() }
        do {
            _ = try workspace.runtime(profile: profile)
            return []
        } catch {
            return error.problems.map { $0.replacingOccurrences(of: workspace.folder.path, with: "") }
        }
    }

    @Test func invalidJSONNamesFileLineAndColumn() throws {
        let found = try problems("{\n  \"location\": {\"latitude\": 1, \"longitude\": 2},\n  \"routes\": {,}\n}")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("/sources.json:3:14: invalid JSON") == true, "\(found)")
    }

    @Test func duplicateKeysAreProblemsWithLineAndColumn() throws {
        let found = try problems("{\"location\": {\"latitude\": 1, \"longitude\": 2},\n \"routes\": {}, \"routes\": {}}")
        #expect(found.first?.contains("sources.json:2:") == true, "\(found)")
    }

    @Test func unknownModulesAreNamedWithTheClosestRegisteredOne() throws {
        let found = try problems(#"{"location": {"latitude": 1, "longitude": 2}, "sources": {"f": {"module": "Fixture"}}, "routes": {"pass": "f"}}"#)
        #expect(found.contains { $0.contains("Fixtures") }, "\(found)")
    }

    @Test func aProfileReroutesSchemes() throws {
        let workspace = try Workspace.replay()
        defer { workspace.remove() }
        let base = try workspace.runtime()
        let live = try workspace.runtime(profile: "live")
        #expect(base.configuration.routes.first { $0.scheme == "moon" }?.instances == ["fixtures"])
        #expect(live.configuration.routes.first { $0.scheme == "moon" }?.instances == ["astronomy"])
        #expect(live.configuration.profile == "live")
        #expect(try problems(#"{"location": {"latitude": 1, "longitude": 2}}"#, profile: "nope").first?.contains("nope") == true)
    }
}
