import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import SpaceWeather

/// `aurora` results as Home Assistant entities, from SWPC's real K-index, Kp forecast and
/// OVATION grid as PresentationTests resolve them.
@Suite struct EntitiesTests {

    /// What every list must be: each key once and `[a-z0-9_]`, an enum's state one of its options.

    func entities(_ urn: String, now: Date = stormEve) async throws -> [Entity] {
        let result = try await makeSource().resolve(urn, context: context(try swpc(), now: now))
        let entities = presentation.entities(result.data, context: textContext(urn))
        #expect(entityProblems(entities, keys: ["kp", "g_level", "aurora_possible"]) == [])
        return entities
    }

    /// Tromsø before the storm of 2026-02-05: Kp 4+ (4.33) now, G1 ahead, 23 % at its cell.
    @Test func tromsoBeforeAStorm() async throws {
        let entities = try await entities("aurora:tromso")
        let kp = try #require(entity("kp", in: entities))
        #expect(kp.state == .double(4.33))
        #expect(kp.stateClass == "measurement" && kp.icon == "mdi:earth" && kp.unit == nil)
        #expect(kp.attributes["kp_text"] == "4+")
        let level = try #require(entity("g_level", in: entities))
        #expect(level.state == "G1", "the card's status: the next 24 hours' level")
        #expect(level.options == ["G0", "G1", "G2", "G3", "G4", "G5"])
        #expect(level.attributes["observed"] == "G0")
        #expect(level.attributes["peak_time"] == "2026-02-05T03:00:00Z")
        let possible = try #require(entity("aurora_possible", in: entities))
        #expect(possible.component == .binarySensor && possible.name == "Aurora possible tonight here")
        #expect(possible.state == true)
        #expect(possible.attributes["probability"] == 23)
    }

    /// Reykjavik's 14 % is possible; Stevens Pass's 0 % is not; `aurora:now` has no place, so
    /// whether one may be seen "here" is not known.
    @Test func possibleByThePlacesProbability() async throws {
        #expect(entity("aurora_possible", in: try await entities("aurora:reykjavik"))?.state == true)
        let stevens = try await entities("aurora:stevens")
        #expect(entity("aurora_possible", in: stevens)?.state == false)
        #expect(entity("aurora_possible", in: stevens)?.attributes["probability"] == 0)
        let now = try await entities("aurora:now", now: februaryEvening)
        #expect(entity("aurora_possible", in: now)?.state == .null)
        #expect(entity("kp", in: now)?.state == .double(2))
        #expect(entity("g_level", in: now)?.state == "G0")
    }

    /// Past the forecast's end the level is the observed one, as the card says.
    @Test func noForecastAhead() async throws {
        let entities = try await entities("aurora:now", now: try #require(Timestamp.parse("2026-02-20T00:00:00Z")))
        #expect(entity("g_level", in: entities)?.state == "G0")
        #expect(entity("g_level", in: entities)?.attributes["peak_time"] == "2026-02-09T15:00:00Z")
    }

    /// Data from elsewhere (a hand-edited fixture, an old cache entry): every state unknown, no trap.
    @Test func garbageIsUnknown() {
        let garbage: [JSONValue] = [
            .null, 3, "aurora", [], [:], ["kp": "high"], ["observed": ["kp": 12], "next24h": "soon", "ovation": ["probability": "x"], "place": 3],
            ["observed": ["kp": .double(.nan), "gScale": "G9"], "next24h": ["kp": -1], "place": ["name": "x"], "ovation": ["probability": .double(1e300)]],
            ["observed": 3, "next24h": nil, "ovation": ["probability": 50]],
        ]
        for data in garbage {
            let entities = presentation.entities(data, context: textContext("aurora:x"))
            #expect(entityProblems(entities, keys: ["kp", "g_level", "aurora_possible"]) == [])
            #expect(entities.allSatisfy { $0.state == .null }, "\(data): \(entities.map(\.state))")
        }
    }
}
