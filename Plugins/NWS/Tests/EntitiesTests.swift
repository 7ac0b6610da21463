import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import NWSStandIn
import TestHarness
import Testing
@testable import NWS

/// Forecasts, alerts and the sky as Home Assistant entities, from the stand-in's recordings
/// (`forecast:stevens`, `alerts:stevens` and `alerts:snoqualmie` as PresentationTests resolve
/// them) and the real TAE grid (as SkyPresentationTests resolves it).
@Suite struct EntitiesTests {
    func context(_ urn: String) -> PresentationContext { PresentationTests().context(urn) }

    @Test func theForecastsNextPeriodAsTheRecordingHasIt() async throws {
        let result = try await PresentationTests().resolved("forecast:stevens")
        let entities = ForecastPresentation().entities(result.data, context: context("forecast:stevens"))
        #expect(entityProblems(entities, keys: ["temperature", "forecast"]) == [])
        // The text's first period: "Today  35°F  Snow · wind SW 5 to 10 mph · precip 90%".
        let temperature = try #require(entity("temperature", in: entities))
        #expect(temperature.state == .double(35))
        #expect(temperature.unit == "°F" && temperature.deviceClass == "temperature" && temperature.stateClass == "measurement")
        #expect(temperature.attributes["period"] == "Today")
        #expect(temperature.attributes["start"] == .string(Timestamp.string(from: try #require(Timestamp.parse("2025-11-02T07:00:00-08:00")))))
        let forecast = try #require(entity("forecast", in: entities))
        #expect(forecast.state == "Snow")
        #expect(forecast.attributes["period"] == "Today")
        #expect(forecast.component == .sensor && forecast.stateClass == nil)
    }

    /// A kept forecast read later begins with a period that has ended: the next one is the one
    /// not yet over when the data was read.
    @Test func anEndedPeriodIsSkipped() async throws {
        guard case .object(var data) = try await PresentationTests().resolved("forecast:stevens").data else { Issue.record("not an object"); return }
        data["age"] = .int(12 * 3_600)  // read at 18:45 PST, after Today's 18:00 end
        let entities = ForecastPresentation().entities(.object(data), context: context("forecast:stevens"))
        #expect(entity("temperature", in: entities)?.state == .double(28))
        #expect(entity("temperature", in: entities)?.attributes["period"] == "Tonight")
    }

    @Test func aLongShortForecastIsClippedAndCelsiusSaysSo() throws {
        let data: JSONValue = ["place": ["id": "x"], "periods": [
            ["name": "", "start": "2025-11-02T15:00:00Z", "end": "2025-11-02T16:00:00Z", "temperature": -3.5, "temperatureUnit": "C",
             "shortForecast": .string(String(repeating: "Snow and ", count: 40))],
        ]]
        let entities = ForecastPresentation().entities(data, context: context("forecast:x:hourly"))
        #expect(entity("temperature", in: entities)?.state == .double(-3.5))
        #expect(entity("temperature", in: entities)?.unit == "°C")
        #expect(entity("temperature", in: entities)?.attributes["period"] == .null, "hourly periods have no names")
        #expect(entity("forecast", in: entities)?.state.stringValue?.count == 255)
    }

    @Test func alertsCountAndHighestSeverityFromTheRecording() async throws {
        let result = try await PresentationTests().resolved("alerts:stevens")
        let entities = AlertsPresentation().entities(result.data, context: context("alerts:stevens"))
        #expect(entityProblems(entities, keys: ["alerts", "highest_severity"]) == [])
        let count = try #require(entity("alerts", in: entities))
        #expect(count.state == .int(1))
        #expect(count.stateClass == "measurement" && count.icon == "mdi:alert")
        let severity = try #require(entity("highest_severity", in: entities))
        #expect(severity.state == "moderate", "the recording's Winter Weather Advisory is Moderate (its Test Message is not an active alert)")
        #expect(severity.options == ["none", "minor", "moderate", "severe", "extreme", "unknown"])
        #expect(severity.attributes["headlines"] == [
            "Winter Weather Advisory issued November 2 at 3:12AM PST until November 3 at 10:00AM PST by NWS Seattle WA",
        ])

        let none = AlertsPresentation().entities(try await PresentationTests().resolved("alerts:snoqualmie").data, context: context("alerts:snoqualmie"))
        #expect(entityProblems(none, keys: ["alerts", "highest_severity"]) == [])
        #expect(entity("alerts", in: none)?.state == .int(0))
        #expect(entity("highest_severity", in: none)?.state == "none")
        #expect(entity("highest_severity", in: none)?.attributes["headlines"] == [])
    }

    /// Extreme outranks the rest; an unknown or odd severity ranks lowest; an alert without a
    /// headline is listed by its event.
    @Test func theHighestSeverityWins() {
        func highest(_ severities: [JSONValue]) -> JSONValue? {
            let data: JSONValue = ["place": ["id": "x"], "alerts": .array(severities.map { ["event": "Some Warning", "severity": $0] })]
            return entity("highest_severity", in: AlertsPresentation().entities(data, context: context("alerts:x")))?.state
        }
        #expect(highest(["Minor", "Extreme", "Severe"]) == "extreme")
        #expect(highest(["Unknown", "Minor"]) == "minor")
        #expect(highest(["Unknown"]) == "unknown")
        #expect(highest([.null, 3, "Catastrophic"]) == "unknown")
        let data: JSONValue = ["place": ["id": "x"], "alerts": [["event": "Wind Advisory", "severity": "Moderate"]]]
        #expect(entity("highest_severity", in: AlertsPresentation().entities(data, context: context("alerts:x")))?.attributes["headlines"] == ["Wind Advisory"])
    }

    @Test func theCloudCoverNowFromTheRealGrid() async throws {
        let result = try await SkyPresentationTests().resolved()
        let entities = SkyPresentation().entities(result.data, context: context("sky:stevens"))
        #expect(entityProblems(entities, keys: ["cloud_cover"]) == [])
        let cover = try #require(entity("cloud_cover", in: entities))
        // The text: "now mostly cloudy (84%)".
        #expect(cover.state.doubleValue.map { Int($0.rounded()) } == 84)
        #expect(cover.unit == "%" && cover.stateClass == "measurement" && cover.icon == "mdi:weather-cloudy")
        #expect(cover.attributes["band"] == "mostly cloudy")
        #expect(cover.attributes["time"] == .string(Timestamp.string(from: try #require(result.data["hours"]?.arrayValue?.first?["time"]?.dateValue))))
    }

    /// Data from elsewhere (a hand-edited fixture, an old cache entry): every state unknown, no trap.
    @Test func garbageIsUnknown() {
        let garbage: [JSONValue] = [
            .null, 3, "forecast", [], [:], ["periods": "no"], ["alerts": "none"], ["hours": 3],
            ["place": [:], "periods": [1, "x", [:], ["temperature": 1e300, "temperatureUnit": 7, "shortForecast": 5]], "updated": 4, "age": "old"],
            ["place": [:], "periods": [["temperature": .double(.nan), "temperatureUnit": "K", "shortForecast": ""]]],
            ["place": ["id": 3], "hours": [1, ["time": 3], ["time": "2022-02-04T18:00:00Z", "skyCover": "lots"]]],
        ]
        let presentations: [(any ResultPresentation, [String])] = [
            (ForecastPresentation(), ["temperature", "forecast"]), (AlertsPresentation(), ["alerts", "highest_severity"]), (SkyPresentation(), ["cloud_cover"]),
        ]
        for data in garbage {
            for (presentation, keys) in presentations {
                let entities = presentation.entities(data, context: context("x:y"))
                #expect(entityProblems(entities, keys: keys) == [])
                #expect(entities.allSatisfy { $0.state == .null }, "\(data): \(entities.map(\.state))")
            }
        }
    }
}
