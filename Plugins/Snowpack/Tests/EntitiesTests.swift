import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import Snowpack

/// A station's snowpack as Home Assistant entities, on the AWDB bodies the module's tests read
/// (all derived in AWDB's documented shape: no real AWDB body is public, Resources/derived/
/// SOURCES.md): Stevens Pass on 2026-11-26 (58 in, SWE 15.1 in, +8 in over 24 h), the same
/// station with no values, and in July.
@Suite struct EntitiesTests {
    static let keys = ["depth", "swe", "depth_change_24h"]

    func entities(_ data: JSONValue) -> [Entity] {
        presentation.entities(data, context: textContext("snowpack:stevens"))
    }

    @Test func stevensPassInNovember() async throws {
        let data = try await makeSource().resolve("snowpack:stevens", context: context(try november())).data
        let all = entities(data)
        checkSnowpackShape(all)
        #expect(all.map(\.state.doubleValue) == [58, 15.1, 8])
        #expect(all.map(\.state.doubleValue) == [data["depthIn"]?.doubleValue, data["sweIn"]?.doubleValue, data["changes"]?["24h"]?["depthIn"]?.doubleValue])
        #expect(all.map(\.deviceClass) == ["distance", "precipitation", "distance"])
        #expect(all.allSatisfy { $0.unit == "in" && $0.stateClass == "measurement" })
        #expect(all.first?.icon == "mdi:snowflake")
    }

    @Test func noValuesAreUnknown() async throws {
        let data = try await makeSource().resolve("snowpack:stevens", context: context(try november(stevens: Body.stevensNoValues))).data
        #expect(data["status"] == "no data")
        let all = entities(data)
        checkSnowpackShape(all)
        #expect(all.allSatisfy { $0.state == .null })
    }

    /// July: no snow is a depth of 0, not unknown.
    @Test func noSnowIsZero() async throws {
        let http = RecordingHTTPClient([Path.stations: try .jsonFixture(Body.stationsWA), Path.data: try .jsonFixture(Body.stevensJuly)])
        let data = try await makeSource().resolve("snowpack:station:791:WA:SNTL", context: context(http, now: try #require(Timestamp.parse("2026-07-01T20:30:00Z")))).data
        let all = entities(data)
        checkSnowpackShape(all)
        #expect(all.first?.state.doubleValue == 0)
    }

    @Test func garbageIsUnknown() {
        for garbage: JSONValue in [.null, "x", 1, [], [:], ["depthIn": "58", "sweIn": [], "changes": "none"], ["changes": ["24h": 8]],
                                   ["changes": ["24h": ["depthIn": true]]], ["depthIn": .double(.infinity), "sweIn": .double(.nan)]] {
            let all = entities(garbage)
            checkSnowpackShape(all)
            #expect(all.allSatisfy { $0.state == .null }, "\(garbage)")
        }
    }
}

/// The three keys, each once, in order and `[a-z0-9_]`, numbers or unknown.
private func checkSnowpackShape(_ entities: [Entity], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(entities.map(\.key) == EntitiesTests.keys, sourceLocation: sourceLocation)
    #expect(entities.allSatisfy { $0.key.wholeMatch(of: /[a-z0-9_]+/) != nil && $0.component == .sensor }, sourceLocation: sourceLocation)
    #expect(entities.allSatisfy { $0.state == .null || $0.state.doubleValue != nil }, sourceLocation: sourceLocation)
}
