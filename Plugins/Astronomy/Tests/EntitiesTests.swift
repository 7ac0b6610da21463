@testable import Astronomy
import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMoon
import ConditionsText
import Foundation
import Testing

/// The moon, its phases, the sun and the night as Home Assistant entities, from this module's
/// own computation on the days the other tests check it against published figures.
@Suite struct EntitiesTests {
    let moon = MoonData.presentations.first { $0.kind == .moon }!
    let phases = MoonData.presentations.first { $0.kind == .phases }!

    func time(_ text: String) throws -> JSONValue { .string(Timestamp.string(from: try instant(text))) }

    /// Miami at the Aeris reference instant (illumination 31 %, waning crescent; MoonStateTests),
    /// and Seattle on the first quarter of 2015-04-25.
    @Test func theMoonOnKnownDays() throws {
        let miami = moon.entities(MoonReport(at: try instant("2015-04-13T22:00:13Z"), place: Places.miami).json(place: Places.miami),
                                  context: textContext("moon:2015-04-13"))
        #expect(entityProblems(miami, keys: ["phase", "illumination"]) == [])
        let phase = try #require(entity("phase", in: miami))
        #expect(phase.state == "waning_crescent")
        #expect(phase.options == ["new_moon", "waxing_crescent", "first_quarter", "waxing_gibbous", "full_moon", "waning_gibbous", "last_quarter", "waning_crescent"])
        let illumination = try #require(entity("illumination", in: miami))
        #expect(illumination.state.doubleValue.map { abs($0 - 31) <= 0.5 } == true, "\(illumination.state)")
        #expect(illumination.unit == "%" && illumination.stateClass == "measurement" && illumination.icon?.hasPrefix("mdi:moon") == true)

        let seattle = moon.entities(MoonReport(at: try instant("2015-04-25T23:55:00Z"), place: Places.seattle).json(place: Places.seattle),
                                    context: textContext("moon:2015-04-25"))
        #expect(entity("phase", in: seattle)?.state == "first_quarter")
    }

    /// Every name the module gives over a lunation is one of HA's phases.
    @Test func everyPhaseNameMaps() throws {
        var date = try instant("2026-01-01T12:00:00Z")
        var seen = Set<String>()
        for _ in 0..<30 {
            let entities = moon.entities(MoonReport(at: date, place: Places.greenwich).json(place: Places.greenwich), context: textContext("moon:now"))
            #expect(entityProblems(entities, keys: ["phase", "illumination"]) == [])
            if let state = entity("phase", in: entities)?.state.stringValue { seen.insert(state) }
            date.addTimeInterval(86_400)
        }
        #expect(seen.count == 8, "\(seen.sorted())")
    }

    /// `phases:5` after 2015-04-15: the new moon of 2015-04-18 18:56:51 (DE421, SourceTests) and
    /// the full moon of 2015-05-04 03:42 UT (USNO).
    @Test func theNextPhases() async throws {
        let data = try await resolve("phases:5", now: "2015-04-15T00:00:00Z")
        let entities = phases.entities(data, context: textContext("phases:5"))
        #expect(entityProblems(entities, keys: ["next_full_moon", "next_new_moon", "next_phase"]) == [])
        #expect(entity("next_new_moon", in: entities)?.state == (try time("2015-04-18T18:56:51Z")))
        #expect(entity("next_new_moon", in: entities)?.deviceClass == "timestamp")
        let full = try #require(entity("next_full_moon", in: entities)?.state.stringValue.flatMap { Timestamp.parse($0) })
        #expect(seconds(full, try instant("2015-05-04T03:42:00Z")) <= 120)
        let next = try #require(entity("next_phase", in: entities))
        #expect(next.state == "new_moon")
        #expect(next.attributes["time"] == (try time("2015-04-18T18:56:51Z")))
    }

    /// Sunrise and sunset are the times the text prints for a computed Seattle midsummer day.
    @Test func sunriseAndSunsetAsTheTextPrintsThem() throws {
        let context = SunPresentationTests().context("sun:2026-06-21")
        let data = SunReport(at: try instant("2026-06-21T12:00:00-07:00"), place: Places.seattle).json(place: Places.seattle)
        let entities = SunPresentation().entities(data, context: context)
        #expect(entityProblems(entities, keys: ["next_sunrise", "next_sunset"]) == [])
        let line = try #require(SunPresentation().render(data, context: context).first)
        for (key, word) in [("next_sunrise", "sunrise"), ("next_sunset", "sunset")] {
            let sensor = try #require(entity(key, in: entities))
            #expect(sensor.deviceClass == "timestamp")
            let date = try #require(sensor.state.stringValue.flatMap { Timestamp.parse($0) })
            #expect(sensor.state == data[word], "the data's instant, as given")
            let clock = try #require(context.localTime(date, .time).split(separator: " ").first)
            #expect(line.contains("\(word) \(clock)"), "\(line)")
        }
        // Midnight sun at Tromsø: no sunrise, no sunset.
        let tromso = SunReport(at: try instant("2026-06-21T12:00:00+02:00"), place: Places.tromso).json(place: Places.tromso)
        #expect(SunPresentation().entities(tromso, context: context).map(\.state) == [.null, .null])
    }

    /// Stevens Pass, 2026-11-26 (NightTests' windows): clear, clear, cloudy from 04:00Z, so the
    /// first window is the start of astronomical night to 04:00Z.
    @Test func tonightsFirstDarkWindow() async throws {
        let covers: [Double?] = [10, 30, 80, 95, 31, 0, 5, 20, 25, nil, 15, 10, 10]
        let urns = StubURNs(["sky:stevens": try NightTests.sky(from: "2026-11-27T02:00:00Z", covers)])
        let data = try await NightTests.night("night:stevens:2026-11-26", urns: urns, options: JSONObject([("nightMaxMoonIllumination", 100)])).data
        let entities = NightPresentation().entities(data, context: textContext("night:stevens:2026-11-26"))
        #expect(entityProblems(entities, keys: ["dark_start", "dark_end", "dark_window_tonight"]) == [])
        let dark = try #require(NightTests.spans(data["dark"]).first)
        #expect(entity("dark_start", in: entities)?.state == .string(Timestamp.string(from: dark.0)))
        #expect(entity("dark_end", in: entities)?.state == (try time("2026-11-27T04:00:00Z")))
        let window = try #require(entity("dark_window_tonight", in: entities))
        #expect(window.component == .binarySensor && window.state == true)
        #expect(window.attributes["date"] == "2026-11-26")

        // Overcast all night: no window. Clouds unknown (the sky failed): not known.
        let overcast = StubURNs(["sky:stevens": try NightTests.sky(from: "2026-11-27T00:00:00Z", Array(repeating: 100, count: 20))])
        let cloudy = NightPresentation().entities(try await NightTests.night("night:stevens:2026-11-26", urns: overcast).data, context: textContext("night:x"))
        #expect(cloudy.map(\.state) == [.null, .null, false])
        let failed = StubURNs(["sky:stevens": .failure(.upstream("NWS: grid expired"))])
        let unknown = NightPresentation().entities(try await NightTests.night("night:stevens:2026-11-26", urns: failed,
                                                                              options: JSONObject([("nightMaxMoonIllumination", 100)])).data,
                                                   context: textContext("night:x"))
        #expect(unknown.map(\.state) == [.null, .null, .null])
    }

    /// Data from elsewhere (a hand-edited fixture, an old cache entry): every state unknown, no trap.
    @Test func garbageIsUnknown() {
        let garbage: [JSONValue] = [
            .null, 3, "moon", [], [:], ["phase": 3, "illumination": "bright"], ["phase": "gibbous-ish", "illumination": .double(.infinity)],
            ["phases": "soon"], ["phases": [1, ["name": "full moon"], ["name": 2, "date": "2015-05-04T03:42:00Z"], ["name": "full moon", "date": "later"]]],
            ["date": 3, "sunrise": "2026-06-21T12:00:00Z"], ["date": "2026-06-21", "solarNoon": "noon", "sunset": "2026-06-21T12:00:00Z"],
            ["date": "2026-06-21", "solarNoon": "2026-06-21T12:00:00Z", "sunrise": 5, "sunset": "dusk"],
            ["date": "2026-11-26"], ["darkness": "astronomical"], ["date": 1, "darkness": 2, "windows": "all night"],
        ]
        let presentations: [(any ResultPresentation, [String])] = [
            (moon, ["phase", "illumination"]), (phases, ["next_full_moon", "next_new_moon", "next_phase"]),
            (SunPresentation(), ["next_sunrise", "next_sunset"]), (NightPresentation(), ["dark_start", "dark_end", "dark_window_tonight"]),
        ]
        for data in garbage {
            for (presentation, keys) in presentations {
                let entities = presentation.entities(data, context: textContext("x:y"))
                #expect(entityProblems(entities, keys: keys) == [])
                #expect(entities.allSatisfy { $0.state == .null }, "\(data): \(entities.map(\.state))")
            }
        }
    }
}
