import ConditionsKitTesting
import NWSStandIn
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import TestHarness
import Testing
@testable import NWS

/// Reading the raw grid (`/gridpoints`) into hours: ISO 8601 durations, run-length intervals
/// spread over hours with the real TAE 58,65 body, the 48-hour window, and what a bad body does.
@Suite struct SkyGridTests {
    static let url = URL(string: "https://api.weather.gov/gridpoints/TAE/58,65")!
    static func realText() throws -> String { try NWSStandIn.fixture("real/nws_gridpoints_TAE_58_65_2022-02-04.json") }
    static func real() throws -> JSONValue { try JSONValue.parse(Data(try realText().utf8)) }
    static func date(_ text: String) -> Date { Timestamp.parse(text)! }
    static func seconds(_ text: String) -> Int { Int(date(text).timeIntervalSince1970) }
    /// `root` without its member at `path` (`["properties", "skyCover"]`).
    static func without(_ path: [String], in root: JSONValue) throws -> JSONValue {
        var object = try #require(root.objectValue)
        guard let key = path.first else { return root }
        if path.count == 1 {
            try #require(object[key] != nil)
            object[key] = nil
        } else {
            object[key] = try without(Array(path.dropFirst()), in: try #require(object[key]))
        }
        return .object(object)
    }
    /// Whole numbers, as the result holds them.
    static func rounded(_ values: [Double?]) -> [Int?] { values.map { $0.map { Int($0.rounded()) } } }

    @Test func durationsAreReadInSeconds() {
        #expect(GridDuration.seconds("PT1H") == 3_600)
        #expect(GridDuration.seconds("PT3H") == 10_800)
        #expect(GridDuration.seconds("P1DT6H") == 108_000)
        #expect(GridDuration.seconds("P7DT14H") == 655_200)
        #expect(GridDuration.seconds("P2D") == 172_800)
        #expect(GridDuration.seconds("P1W") == 604_800)
        #expect(GridDuration.seconds("PT90M") == 5_400)
        #expect(GridDuration.seconds("PT1H30M15S") == 5_415)
        // No calendar lengths, no zero, no disorder, nothing unbounded.
        for bad in ["", "P", "PT", "P1DT", "PT1D", "P1H", "3H", "P1Y", "P1M", "PT0H", "P0D", "PT1H2H", "PT1M1H", "P-1D", "P1.5D", "P99999999D", "P1DT6H ", "p1d"] {
            #expect(GridDuration.seconds(Substring(bad)) == nil, "\(bad)")
        }
    }

    /// Real intervals of the capture: humidity's `02-04T02:00/PT9H` (97) and `02-04T11:00/PT3H`
    /// (100), the chance of precipitation in 3- and 6-hour intervals.
    @Test func realIntervalsSpreadOverTheirHours() throws {
        let properties = try #require(try Self.real()["properties"])
        let humidity = try #require(GridLayer(properties["relativeHumidity"], path: "properties.relativeHumidity"))
        #expect(humidity.notes.isEmpty)
        #expect(humidity.intervals[5] == .init(start: Self.seconds("2022-02-04T02:00:00Z"), end: Self.seconds("2022-02-04T11:00:00Z"), value: 97))
        #expect(Self.rounded(humidity.hourly(from: Self.seconds("2022-02-04T00:00:00Z"), count: 16))
            == [87, 93, 97, 97, 97, 97, 97, 97, 97, 97, 97, 100, 100, 100, 97, 93])
        let chance = try #require(GridLayer(properties["probabilityOfPrecipitation"], path: "p"))
        #expect(Self.rounded(chance.hourly(from: Self.seconds("2022-02-03T21:00:00Z"), count: 13)) == [8, 8, 8, 1, 1, 1, 1, 1, 1, 20, 20, 20, 31])
        // Starting inside an interval (PT6H from 00:00) keeps only its remaining hours.
        #expect(Self.rounded(chance.hourly(from: Self.seconds("2022-02-04T04:00:00Z"), count: 3)) == [1, 1, 20])
        // Hours before the grid's first have no value.
        #expect(Self.rounded(chance.hourly(from: Self.seconds("2022-02-03T19:00:00Z"), count: 3)) == [nil, nil, 8])
    }

    /// `windChill` opens with a real null over `P1DT6H`: 30 hours without a value, never zero.
    @Test func aMultiDayNullIsNoValueForEachOfItsHours() throws {
        let properties = try #require(try Self.real()["properties"])
        let chill = try #require(GridLayer(properties["windChill"], path: "properties.windChill"))
        #expect(chill.intervals.first == .init(start: Self.seconds("2022-02-03T21:00:00Z"), end: Self.seconds("2022-02-05T03:00:00Z"), value: nil))
        let hours = chill.hourly(from: Self.seconds("2022-02-03T21:00:00Z"), count: 32)
        #expect(hours.prefix(30).allSatisfy { $0 == nil })
        #expect(hours[30].map { ($0 * 1000).rounded() } == 8333 && hours[31].map { ($0 * 1000).rounded() } == 7778)
    }

    /// The 48 hours from the one `now` is in (18:20 → 18:00), every layer; the sky cover's
    /// first hour comes from a `PT2H` interval that began at 17:00, and visibility ends after
    /// 2022-02-05T09:00 in the capture, so its later hours are null.
    @Test func fortyEightHoursFromTheCurrentOne() throws {
        let sky = try NWSSky(body: Data(try Self.realText().utf8), url: Self.url, now: Self.date("2022-02-04T18:20:00Z"))
        #expect(sky.notes.isEmpty)
        #expect(sky.updated == Self.date("2022-02-04T03:15:41Z"))
        #expect(sky.hours.count == 48)
        #expect(sky.hours.first?["time"] == "2022-02-04T18:00:00Z")
        #expect(sky.hours.last?["time"] == "2022-02-06T17:00:00Z")
        func column(_ key: String) -> [Int?] { sky.hours.map { $0[key]?.intValue } }
        #expect(column("skyCover") == [84, 85, 82, 92, 93, 91, 91, 93, 81, 92, 95, 97, 97, 96, 97, 91, 90, 72, 65, 60, 51, 46, 44, 39,
                                       37, 35, 32, 30, 28, 25, 23, 23, 23, 23, 25, 27, 28, 31, 36, 39, 44, 53, 57, 58, 59, 60, 61, 63])
        #expect(column("precipChance").prefix(19) == [71, 71, 71, 48, 48, 48, 50, 50, 50, 45, 45, 45, 29, 29, 29, 26, 26, 26, 5])
        #expect(column("humidity").prefix(6) == [87, 84, 84, 84, 87, 93])
        #expect(column("visibilityM").prefix(17) == [7258, 8819, 9173, 9077, 9656, 7821, 5794, 8256, 9656, 9656, 9656, 9656, 13132, 14050, 14983, 15900, nil])
        #expect(sky.hours[16]["visibilityM"] == .null)
        #expect(sky.hours.allSatisfy { $0.objectValue?.keys == ["time", "skyCover", "precipChance", "humidity", "visibilityM"] })
    }

    @Test func aGridWithoutSkyCoverOrLongExpiredFails() throws {
        let root = try Self.without(["properties", "skyCover"], in: try Self.real())
        let missing = #expect(throws: ConditionsError.self) { try NWSSky(body: Data(root.serialized().utf8), url: Self.url, now: Self.date("2022-02-04T18:00:00Z")) }
        #expect(missing?.kind == .badResponse)
        #expect(missing?.message == "https://api.weather.gov/gridpoints/TAE/58,65: properties.skyCover is missing or has no values array")
        // A year later, nothing in it is about the coming hours.
        let stale = #expect(throws: ConditionsError.self) { try NWSSky(body: Data(try Self.realText().utf8), url: Self.url, now: Self.date("2023-02-04T18:00:00Z")) }
        #expect(stale?.message == "https://api.weather.gov/gridpoints/TAE/58,65: properties.skyCover has no value in the 48 hours from 2023-02-04T18:00:00Z (the grid was updated 2022-02-04T03:15:41Z)")
        for body in ["", "[]", #"{"properties": 3}"#] {
            #expect(throws: ConditionsError.self) { try NWSSky(body: Data(body.utf8), url: Self.url, now: Self.date("2022-02-04T18:00:00Z")) }
        }
    }

    /// Another layer missing, a bad entry, a unit this cannot read: the rest answers, and
    /// `notes` says what is missing.
    @Test func whatCannotBeReadIsLeftOutAndSaid() throws {
        var text = try Self.realText()
        // The second humidity entry's time garbled, the third's value a string.
        text = text.replacingOccurrences(of: #""validTime": "2022-02-03T22:00:00+00:00/PT1H",\#n\#t\#t\#t\#t\#t"value": 76"#, with: #""validTime": "2022-02-03T22:00:00+00:00/PT1Y",\#n\#t\#t\#t\#t\#t"value": 76"#)
        #expect(text != (try Self.realText()), "the edit found its entry")
        let root = try Self.without(["properties", "visibility"], in: try JSONValue.parse(Data(text.utf8)))
        let sky = try NWSSky(body: Data(root.serialized().utf8), url: Self.url, now: Self.date("2022-02-03T21:00:00Z"))
        #expect(sky.notes == [
            #"properties.relativeHumidity.values[1]: validTime "2022-02-03T22:00:00+00:00/PT1Y" is not <start>/<ISO 8601 duration>; skipped"#,
            "properties.visibility is missing; visibilityM is null",
        ])
        #expect(sky.hours.prefix(3).map { $0["humidity"] } == [73, .null, 84])
        #expect(sky.hours.allSatisfy { $0["visibilityM"] == .null })
        #expect(sky.hours[0]["skyCover"] == 71)

        let kilometres = #"{"properties": {"skyCover": {"values": [{"validTime": "2022-02-03T21:00:00+00:00/PT2H", "value": "x"}, {"validTime": "2022-02-03T23:00:00+00:00/P1D", "value": 120}]}, "visibility": {"uom": "wmoUnit:km", "values": [{"validTime": "2022-02-03T21:00:00+00:00/PT1H", "value": 1.5}]}, "relativeHumidity": {"uom": "wmoUnit:degC", "values": []}}}"#
        let odd = try NWSSky(body: Data(kilometres.utf8), url: Self.url, now: Self.date("2022-02-03T21:59:59Z"))
        #expect(odd.hours.prefix(3).map { $0["skyCover"] } == [.null, .null, 100], "a string is no value; 120 is at most 100")
        #expect(odd.hours[0]["visibilityM"] == 1500)
        #expect(odd.notes == [
            "properties.skyCover.values[0]: value is string, not a number or null; skipped",
            "properties.probabilityOfPrecipitation is missing; precipChance is null",
            #"properties.relativeHumidity: unit "wmoUnit:degC" is not one this reads; humidity is null"#,
        ])
    }

    /// NWSGrid: `gridX`/`gridY` as text, and the grid-data URL as given or (an older memo entry) built.
    @Test func theGridDataURLIsFollowedOrBuilt() throws {
        let points = URL(string: "https://api.weather.gov/points/\(Place.stevensPoint)")!
        let base = URL(string: "https://api.weather.gov")!
        let given = try NWSGrid(pointsBody: Data(try NWSStandIn.fixture("derived/points_47.745_-121.0933.json").utf8), url: points)
        #expect(given.gridDataURL(base: base)?.absoluteString == "https://api.weather.gov/gridpoints/SEW/163,68")
        let text = #"{"properties": {"forecast": "https://a.test/f", "forecastHourly": "https://a.test/h", "gridId": "SEW", "gridX": "163", "gridY": " 68"}}"#
        let strings = try NWSGrid(pointsBody: Data(text.utf8), url: points)
        #expect(strings.gridText == "SEW 163,68")
        #expect(strings.gridData == nil)
        #expect(strings.gridDataURL(base: URL(string: "http://127.0.0.1:8/nws")!)?.absoluteString == "http://127.0.0.1:8/nws/gridpoints/SEW/163,68")
        // A memo entry from before `sky:` has no gridData; it still reads, and builds the URL.
        let old = try Self.without(["gridData"], in: given.json)
        let kept = try #require(NWSGrid(json: old))
        #expect(kept.gridDataURL(base: base)?.absoluteString == "https://api.weather.gov/gridpoints/SEW/163,68")
        #expect(NWSGrid(json: given.json)?.gridData == given.gridData)
        // Nothing to build from: no URL (the source looks the point up again).
        let bare = try NWSGrid(pointsBody: Data(#"{"properties": {"forecast": "https://a.test/f", "forecastHourly": "https://a.test/h", "gridId": "../x", "gridX": 1, "gridY": 2}}"#.utf8), url: points)
        #expect(bare.gridDataURL(base: base) == nil)
    }
}
