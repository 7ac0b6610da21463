import ConditionsFigures
import NWSStandIn
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import TestHarness
import Testing
@testable import NWS

/// How `sky` results read, on the real TAE grid at 2022-02-04T18:20Z (10:20 PST; times shown
/// in Pacific time as for the config's Seattle): the cloud strip, the ranges, the card's chart,
/// what `watch` compares.
@Suite struct SkyPresentationTests {
    static let now = Timestamp.parse("2022-02-04T18:20:00Z")!

    /// `sky:stevens` answered with the real grid, unmoved, at `now`.
    func resolved() async throws -> SourceResult {
        let http = RecordingHTTPClient([
            "https://api.weather.gov/points/\(Place.stevensPoint)": .geoJSON(try NWSStandIn.fixture("derived/points_47.745_-121.0933.json")),
            "https://api.weather.gov/gridpoints/SEW/163,68": .geoJSON(try NWSStandIn.fixture("real/nws_gridpoints_TAE_58_65_2022-02-04.json")),
        ], fallback: .problemNotFound)
        return try await resolve("sky:stevens", with: try makeSource(), http: http, now: Self.now)
    }

    func context() -> PresentationContext { PresentationTests().context("sky:stevens") }

    @Test func theTextIsAStripOfCloudAndTheRanges() async throws {
        let result = try await resolved()
        #expect(SkyPresentation().render(result.data, context: context()) == [
            "sky:stevens  Stevens Pass · SEW 163,68 · updated Thu Feb 3 19:15 PST",
            "  Clouds         10:00 PST ▇▇▇▇█▇▇█▇▇█████▇▇▆▆▅▅▄▄▄▄▃▃▃▃▃▃▃▃▃▃▃▃▃▄▄▄▅▅▅▅▅▅▅ 09:00 PST",
            "                 ▁ clear … █ overcast, · no value; now mostly cloudy (84%)",
            "  Precip chance  3–71%, highest Fri Feb 4 10:00 PST",
            "  Humidity       45–93%",
            "  Visibility     5.8–16 km",
        ])
    }

    @Test func hoursWithoutValuesAndNotesShow() throws {
        let data: JSONValue = ["place": ["id": "x"], "notes": ["properties.visibility is missing; visibilityM is null"], "hours": [
            ["time": "2022-02-04T18:00:00Z", "skyCover": .null, "precipChance": .null, "humidity": 50, "visibilityM": .null],
            ["time": "2022-02-04T19:00:00Z", "skyCover": 0, "precipChance": .null, "humidity": 50, "visibilityM": .null],
            ["time": "2022-02-04T20:00:00Z", "skyCover": 100, "precipChance": 0, "humidity": 50, "visibilityM": .null],
        ]]
        #expect(SkyPresentation().render(data, context: context()) == [
            "sky:stevens  x",
            "  Clouds         10:00 PST ·▁█ 12:00 PST",
            "                 ▁ clear … █ overcast, · no value; now no value",
            "  Precip chance  0%",
            "  Humidity       50%",
            "  Visibility     —",
            "  note: properties.visibility is missing; visibilityM is null",
        ])
        #expect(SkyPresentation().changeKey(data) == ChangeKey(status: "no value", detail: "no value > clear > cloudy"))
        // Not sky data: the generic text, no trap.
        for odd: JSONValue in [["hours": 3], ["place": ["id": "x"], "hours": [1, ["time": 3]]], .null] {
            _ = SkyPresentation().render(odd, context: context())
            _ = SkyPresentation().card(odd, context: context())
            _ = SkyPresentation().changeKey(odd)
        }
    }

    @Test func theCardChartsSkyCoverPerHour() async throws {
        let result = try await resolved()
        let card = SkyPresentation().card(result.data, context: context())
        #expect(card.title == "Stevens Pass")
        #expect(card.subtitle == "Sky cover, next 48 hours (NWS)")
        #expect(card.status == .init("mostly cloudy", tone: .neutral))
        guard let chart = card.figure else {
            Issue.record("no chart: \(String(describing: card.figure))")
            return
        }
        #expect(chart.title == "Sky cover per hour")
        #expect(chart.notes == ["Sky cover per hour", "Fri Feb 4 10:00 PST – Sun Feb 6 09:00 PST", "top 97 %"])
        let bars = chart.marks.compactMap(\.label)
        #expect(bars.count == 48)
        #expect(bars.prefix(5) == ["Fri Feb 4 10:00 PST: 84 %", "Fri Feb 4 11:00 PST: 85 %", "Fri Feb 4 12:00 PST: 82 %",
                                   "Fri Feb 4 13:00 PST: 92 %", "Fri Feb 4 14:00 PST: 93 %"])
        #expect(chart.summary == "Sky cover per hour at Stevens Pass from Fri Feb 4 10:00 PST to Sun Feb 6 09:00 PST: 23–97%, 59% on average.")
        #expect(card.rows.map(\.label) == ["Now", "Precip chance", "Humidity", "Visibility", "Grid"])
        #expect(card.rows.map(\.value) == ["mostly cloudy (84%)", "3–71%, highest Fri Feb 4 10:00 PST", "45–93%", "5.8–16 km", "SEW 163,68"])
        #expect(card.updated == Timestamp.parse("2022-02-04T03:15:41Z"))
        #expect(card.link?.url.absoluteString == "https://forecast.weather.gov/MapClick.php?lat=47.745&lon=-121.0933")
    }

    /// `watch`: the band now, and the bands of the next 12 hours in order; a few percent more
    /// or less in an hour is no change, a band coming into the 12 hours is.
    @Test func watchComparesCloudBands() async throws {
        let result = try await resolved()
        let key = SkyPresentation().changeKey(result.data)
        // 84 85 82 92 93 91 91 93 81 92 95 97: eighths 7 7 7 7 7 7 7 7 6 7 8 8.
        #expect(key == ChangeKey(status: "mostly cloudy", detail: "mostly cloudy > cloudy"))
        func edited(_ hour: Int, _ cover: Int) throws -> JSONValue {
            var data = try #require(result.data.objectValue)
            var hours = try #require(data["hours"]?.arrayValue)
            var entry = try #require(hours[hour].objectValue)
            entry["skyCover"] = .int(cover)
            hours[hour] = .object(entry)
            data["hours"] = .array(hours)
            return .object(data)
        }
        #expect(SkyPresentation().changeKey(try edited(3, 88)) == key, "92 → 88: still mostly cloudy")
        #expect(SkyPresentation().changeKey(try edited(5, 40)).detail == "mostly cloudy > partly cloudy > mostly cloudy > cloudy")
        #expect(SkyPresentation().changeKey(try edited(0, 5)).status == "clear")
        #expect(SkyPresentation().changeKey(try edited(20, 0)) == key, "beyond 12 hours")
    }
}
