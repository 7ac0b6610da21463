import ConditionsFigures
import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import Snowpack

/// `snowpack` results as text and as a card, and what `watch` counts as a change.
@Suite struct PresentationTests {
    @Test func stevensPassAsText() async throws {
        let result = try await makeSource().resolve("snowpack:stevens", context: context(try november()))
        #expect(presentation.render(result.data, context: textContext("snowpack:stevens")) == [
            "snowpack:stevens  Stevens Pass (791:WA:SNTL): depth 58 in, SWE 15.1 in",
            "  24 h     depth +8 in · SWE +1.2 in",
            "  72 h     depth +14 in · SWE unavailable",
            "  7 days   depth +18 in · SWE +3.1 in",
            "  air      24.5 °F",
            "  station  3,940 ft (1,201 m) · 0.6 km (0.4 mi) from Stevens Pass",
            "  reading  2026-11-26T18:00:00Z (10:00 PST)",
            "  14 days  ▁▁▁▁▁▁▃▃▃▃▅▅██  Nov 13 – Nov 26, 40–58 in",
            "  note     SNWD has more than one sensor: ordinal 1 read",
            "  note     skipped 3 suspect SNWD values (qcFlag R, S)",
            "  note     skipped 2 missing SNWD values",
            "  note     skipped 1 missing WTEQ value",
            "  note     72 h change of WTEQ unavailable: no valid value at 2026-11-23 10:00 PST",
            "  https://wcc.sc.egov.usda.gov/nwcc/site?sitenum=791",
        ])
        #expect(presentation.changeKey(result.data) == ChangeKey(status: "54–60 in", detail: "791:WA:SNTL; new snow in 24 h: yes"))
    }

    @Test func staleAsText() async throws {
        let result = try await makeSource().resolve("snowpack:stevens", context: context(try november(stevens: Body.stevensStale)))
        let lines = presentation.render(result.data, context: textContext("snowpack:stevens"))
        #expect(lines.first == "snowpack:stevens  Stevens Pass (791:WA:SNTL): depth 50 in, SWE 13.9 in  stale")
        #expect(lines.contains("  reading  2026-11-26T04:00:00Z (20:00 PST)  stale, 14.5 h old"))
        #expect(lines.contains("  14 days  ▁▁▁▁▁▁▂▂▂▂▄▄██  Nov 12 – Nov 25, 40–50 in"))
        #expect(presentation.changeKey(result.data).status == "stale")
    }

    @Test func aStationByTripletHasNoPlace() async throws {
        let result = try await makeSource().resolve("snowpack:station:791:WA:SNTL", context: context(try november()))
        let lines = presentation.render(result.data, context: textContext("snowpack:station:791:WA:SNTL"))
        #expect(lines.contains("  station  3,940 ft (1,201 m)"))
    }

    @Test func sameReadingsTwiceAreNoChange() async throws {
        let source = try makeSource()
        let first = try await source.resolve("snowpack:stevens", context: context(try november()))
        // Fetched again half an hour later (a new request, the same readings).
        let second = try await source.resolve("snowpack:stevens", context: context(try november(), now: novemberMorning.addingTimeInterval(1800), maxAge: 0))
        #expect(first.data["reading"]?["ageHours"] != second.data["reading"]?["ageHours"])
        #expect(presentation.changeKey(first.data) == presentation.changeKey(second.data))
    }

    @Test func whatCountsAsAChange() async throws {
        let data = try await makeSource().resolve("snowpack:stevens", context: context(try november())).data
        func with(_ key: String, _ value: JSONValue) -> JSONValue {
            guard case .object(var object) = data else { return data }
            object[key] = value
            return .object(object)
        }
        let key = presentation.changeKey(data)
        // Within the 54–60 in band: no change; into the next band: a change.
        #expect(presentation.changeKey(with("depthIn", 59.5)) == key)
        #expect(presentation.changeKey(with("depthIn", 60)).status == "60–66 in")
        #expect(presentation.changeKey(with("depthIn", 52)) != key)
        // SWE, temperature and the reading's time are not news.
        #expect(presentation.changeKey(with("sweIn", 16)) == key)
        #expect(presentation.changeKey(with("airTempF", 31)) == key)
        #expect(presentation.changeKey(with("status", "stale")) != key)
        // New snow stopping (24 h rise under 2 in) is.
        #expect(presentation.changeKey(with("changes", ["24h": ["hours": 24, "depthIn": 1, "sweIn": 0.1]])) != key)
    }

    @Test func card() async throws {
        let result = try await makeSource().resolve("snowpack:stevens", context: context(try november()))
        let card = presentation.card(result.data, context: textContext("snowpack:stevens"))
        #expect(card.title == "Stevens Pass")
        #expect(card.subtitle == "791:WA:SNTL · 0.6 km (0.4 mi) from Stevens Pass")
        #expect(card.status == nil)
        #expect(card.staleNote == nil)
        #expect(card.rows.map(\.label) == ["Snow depth", "Snow water equivalent", "Last 24 h", "Last 72 h", "Last 7 days", "Air temperature", "Reading", "Station"])
        #expect(card.rows.first?.value == "58 in")
        #expect(card.rows[3].value == "depth +14 in · SWE unavailable")
        #expect(card.link?.url.absoluteString == "https://wcc.sc.egov.usda.gov/nwcc/site?sitenum=791")
        #expect(card.coordinate == GeoPoint(latitude: 47.74, longitude: -121.09))
        #expect(card.updated == Timestamp.parse("2026-11-26T18:00:00Z"))
        #expect(card.lines.contains("skipped 3 suspect SNWD values (qcFlag R, S)"))
        guard let chart = card.figure else {
            Issue.record("no bar chart")
            return
        }
        #expect(chart.notes == ["Snow depth per day", "Nov 13 – Nov 26", "top 58 in"])
        let bars = chart.marks.compactMap(\.label)
        #expect(bars.count == 14)
        #expect(bars.first == "Nov 13: 40 in" && bars.last == "Nov 26: 58 in")
        #expect(chart.summary == "Snow depth at Stevens Pass from Nov 13 to Nov 26 2026: 40 in to 58 in, least 40 in, most 58 in.")
    }

    @Test func staleAndEmptyCards() async throws {
        let stale = try await makeSource().resolve("snowpack:stevens", context: context(try november(stevens: Body.stevensStale)))
        let card = presentation.card(stale.data, context: textContext("snowpack:stevens"))
        #expect(card.status == ResultCard.Status("stale", tone: .caution))
        #expect(card.staleNote == "latest reading 2026-11-26T04:00:00Z, 14.5 hours old")
        let empty = try await makeSource().resolve("snowpack:stevens", context: context(try november(stevens: Body.stevensNoValues)))
        let emptyCard = presentation.card(empty.data, context: textContext("snowpack:stevens"))
        #expect(emptyCard.status == ResultCard.Status("no data", tone: .neutral))
        #expect(emptyCard.figure == nil)
        #expect(emptyCard.lines == ["no values reported in the last 14 days"])
    }

    @Test func otherDataDegrades() {
        let data: JSONValue = ["station": "not an object", "depthIn": "deep"]
        #expect(!presentation.render(data, context: textContext("snowpack:x")).isEmpty)
        _ = presentation.changeKey(data)
        _ = presentation.card(data, context: textContext("snowpack:x"))
        // A snowpack-shaped object with every member wrong still reads.
        let odd: JSONValue = ["station": [:], "status": "current", "depthIn": "x", "changes": 3, "daily": [["date": 7]], "notes": [1]]
        #expect(presentation.render(odd, context: textContext("snowpack:x")).first == "snowpack:x  SNOTEL station: depth —, SWE —")
        #expect(presentation.changeKey(odd).status == "no depth")
    }

    @Test func hugeNumbersNeverTrap() throws {
        #expect(SnowpackPresentation.sparkline([-1.7e308, 1.7e308, 0, nil]) == "▁█▅·")
        let huge: JSONValue = ["station": ["name": "X", "elevationFt": 1e300, "elevationM": -1e300], "status": "current",
                               "depthIn": 1e300, "sweIn": -1e300, "airTempF": 1e300,
                               "changes": ["24h": ["depthIn": 1e300, "sweIn": -1e300]],
                               "reading": ["time": "2026-11-26T18:00:00Z", "ageHours": 1e300],
                               "daily": [["date": "2026-11-25", "depthIn": -1.7e308], ["date": "2026-11-26", "depthIn": 1.7e308]]]
        #expect(!presentation.render(huge, context: textContext("snowpack:x")).isEmpty)
        #expect(presentation.changeKey(huge).status == "no depth")
        _ = presentation.card(huge, context: textContext("snowpack:x"))
        // A change between values whose difference overflows is unknown, not infinite.
        let body: JSONValue = [["stationTriplet": "791:WA:SNTL", "data": [
            ["stationElement": ["elementCode": "SNWD", "ordinal": 1], "values": [
                ["date": "2026-11-25 10:00", "value": -1.7e308], ["date": "2026-11-26 10:00", "value": 1.7e308]]]]]]
        let readings = try StationReadings(document: body, triplet: try StationTriplet(id: "791", state: "WA", network: "SNTL"), source: "test")
        let station = try #require(Station(json: ["stationTriplet": "791:WA:SNTL", "latitude": 47.74, "longitude": -121.09]))
        let report = SnowpackReport(station: station, readings: readings, place: .null, now: novemberMorning).json
        #expect(report["changes"]?["24h"]?["depthIn"] == .null)
    }
}
