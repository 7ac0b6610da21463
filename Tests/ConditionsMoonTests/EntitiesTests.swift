import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMoon
import ConditionsText
import Foundation
import Testing

/// The moon kinds (`MoonData.presentations`) as Home Assistant entities, on Aeris's real
/// responses (the Aeris module's test recordings: `/sunmoon` for Miami at 2015-04-13 18:00 EDT
/// and `/sun/moonphases` from 2015-04-13) made into `moon` and `phases` data as Aeris makes them.
@Suite struct EntitiesTests {
    let moon = MoonData.presentations.first { $0.kind == .moon }!
    let phases = MoonData.presentations.first { $0.kind == .phases }!
    let context = PresentationContext(urn: "moon:now", style: .plain, placeName: "Miami") { date, _ in Timestamp.string(from: date) }
    static let miami = Place(name: "Miami", latitude: 25.7877, longitude: -80.2241)

    /// An Aeris recording, from the Aeris module's tests.
    static func recording(_ name: String) throws -> JSONValue {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Plugins/Aeris/Tests/Resources").standardizedFileURL
        return try JSONValue.parse(Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// `/sunmoon`'s moon as `moon` data, read as AerisMoon reads it.
    static func observation() throws -> JSONValue {
        let moon = try #require(try recording("sunmoon.json")["response"]?.arrayValue?.first?["moon"])
        let phase = try #require(moon["phase"])
        return MoonData.observation(phase: try #require(phase["name"]?.stringValue).lowercased(), illumination: try #require(phase["illum"]?.doubleValue),
                                    age: try #require(phase["age"]?.doubleValue), cycle: try #require(phase["phase"]?.doubleValue),
                                    rise: moon["rise"]?.doubleValue.map(Date.init(timeIntervalSince1970:)),
                                    set: moon["set"]?.doubleValue.map(Date.init(timeIntervalSince1970:)), place: miami)
    }

    /// `/sun/moonphases` as `phases` data.
    static func phaseList() throws -> JSONValue {
        let list = try #require(try recording("moonphases.json")["response"]?.arrayValue)
        return MoonData.phases(try list.map { (try #require($0["name"]?.stringValue), Date(timeIntervalSince1970: try #require($0["timestamp"]?.doubleValue))) })
    }

    @Test func aerisMoonOfMiami() throws {
        let entities = moon.entities(try Self.observation(), context: context)
        #expect(entityProblems(entities, keys: ["phase", "illumination"]) == [])
        let phase = try #require(entity("phase", in: entities))
        #expect(phase.state == "waning_crescent")
        #expect(phase.attributes["age"] == .double(24.02))
        let illumination = try #require(entity("illumination", in: entities))
        #expect(illumination.state == .double(31))
        #expect(illumination.unit == "%" && illumination.stateClass == "measurement" && illumination.icon == "mdi:moon-waxing-crescent")
    }

    /// HA's eight phases from the names modules give, in any case, with the last quarter's
    /// other name; a name that is no phase is unknown.
    @Test(arguments: [
        ("new moon", "new_moon"), ("Waxing Crescent", "waxing_crescent"), ("first quarter", "first_quarter"), ("waxing gibbous", "waxing_gibbous"),
        ("full moon", "full_moon"), ("waning gibbous", "waning_gibbous"), ("last quarter", "last_quarter"), ("third quarter", "last_quarter"),
        ("waning crescent", "waning_crescent"), ("waning-crescent", "waning_crescent"), ("blue moon", nil), ("", nil),
    ] as [(String, String?)])
    func phaseNames(name: String, key: String?) throws {
        let data = try Self.observation().objectValue.map { object -> JSONValue in
            var object = object
            object["phase"] = .string(name)
            return .object(object)
        }
        let entities = moon.entities(try #require(data), context: context)
        #expect(entityProblems(entities, keys: ["phase", "illumination"]) == [])
        #expect(entity("phase", in: entities)?.state == key.map(JSONValue.string) ?? .null)
    }

    /// The recording's next phases: new moon 2015-04-18 14:59:19 EDT, full moon 2015-05-03 23:44:47 EDT.
    @Test func aerisPhases() throws {
        let entities = phases.entities(try Self.phaseList(), context: context)
        #expect(entityProblems(entities, keys: ["next_full_moon", "next_new_moon", "next_phase"]) == [])
        #expect(entity("next_full_moon", in: entities)?.state == "2015-05-04T03:44:47Z")
        #expect(entity("next_new_moon", in: entities)?.state == "2015-04-18T18:59:19Z")
        #expect(entity("next_full_moon", in: entities)?.deviceClass == "timestamp")
        let next = try #require(entity("next_phase", in: entities))
        #expect(next.state == "new_moon")
        #expect(next.options == ["new_moon", "first_quarter", "full_moon", "last_quarter"])
        #expect(next.attributes["time"] == "2015-04-18T18:59:19Z")
    }

    /// Data from elsewhere (a hand-edited fixture, an old cache entry): every state unknown, no trap.
    @Test func garbageIsUnknown() {
        let garbage: [JSONValue] = [
            .null, 3, "moon", [], [:], ["phase": 3, "illumination": "bright", "age": "old"], ["phase": "gibbous", "illumination": .double(.nan)],
            ["phases": "soon"], ["phases": [1, ["name": "full moon"], ["name": 2, "date": "2015-05-04T03:42:00Z"], ["name": "new moon", "date": "later"]]],
        ]
        for data in garbage {
            for (presentation, keys) in [(moon, ["phase", "illumination"]), (phases, ["next_full_moon", "next_new_moon", "next_phase"])] {
                let entities = presentation.entities(data, context: context)
                #expect(entityProblems(entities, keys: keys) == [])
                #expect(entities.allSatisfy { $0.state == .null }, "\(data): \(entities.map(\.state))")
            }
        }
    }
}
