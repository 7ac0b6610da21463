import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import Snowpack

/// The derived `/data` bodies read into a report: depth, SWE, changes, temperature, the
/// reading's time in PST, and what was skipped.
@Suite struct ReadingsTests {
    @Test func stevensPassNow() async throws {
        let result = try await makeSource().resolve("snowpack:stevens", context: context(try november()))
        let data = result.data
        #expect(result.kind == SnowpackSource.kind)
        #expect(data["station"]?["triplet"] == "791:WA:SNTL")
        #expect(data["station"]?["name"] == "Stevens Pass")
        #expect(data["station"]?["elevationFt"]?.doubleValue == 3940)
        #expect(data["station"]?["url"] == "https://wcc.sc.egov.usda.gov/nwcc/site?sitenum=791")
        #expect(data["status"] == "current")
        // The first sensor (ordinal 1), not the second listed first (10 in more).
        #expect(data["depthIn"]?.doubleValue == 58)
        #expect(data["sweIn"]?.doubleValue == 15.1)
        #expect(data["airTempF"]?.doubleValue == 24.5)
        #expect(data["reading"]?["time"] == "2026-11-26T18:00:00Z")
        #expect(data["reading"]?["pst"] == "2026-11-26T10:00:00-08:00")
        #expect(data["reading"]?["ageHours"]?.doubleValue == 0.5)
    }

    @Test func changesOver24And72HoursAnd7Days() async throws {
        let data = try await makeSource().resolve("snowpack:stevens", context: context(try november())).data
        let changes = try #require(data["changes"])
        #expect(changes["24h"]?["depthIn"]?.doubleValue == 8)
        #expect(changes["24h"]?["sweIn"]?.doubleValue == 1.2)
        #expect(changes["72h"]?["depthIn"]?.doubleValue == 14)
        // The SWE 72 hours back is null in the body: the change is unknown, not 15.1.
        #expect(changes["72h"]?["sweIn"] == .null)
        #expect(changes["7d"]?["depthIn"]?.doubleValue == 18)
        #expect(changes["7d"]?["sweIn"]?.doubleValue == 3.1)
        #expect(changes["7d"]?["hours"]?.intValue == 168)
        #expect(data.notes.contains("72 h change of WTEQ unavailable: no valid value at 2026-11-23 10:00 PST"))
    }

    @Test func suspectAndMissingValuesAreSkippedAndSaid() async throws {
        let data = try await makeSource().resolve("snowpack:stevens", context: context(try november())).data
        // Two suspect zeros at 04:00 and 05:00 and a rejected 120 in: never read as depths.
        #expect(data["daily"]?.arrayValue?.compactMap { $0["depthIn"]?.doubleValue }.contains(0) == false)
        #expect(data.notes == [
            "SNWD has more than one sensor: ordinal 1 read",
            "skipped 3 suspect SNWD values (qcFlag R, S)",
            "skipped 2 missing SNWD values",
            "skipped 1 missing WTEQ value",
            "72 h change of WTEQ unavailable: no valid value at 2026-11-23 10:00 PST",
        ])
    }

    @Test func dailyDepthsForTheSparkline() async throws {
        let data = try await makeSource().resolve("snowpack:stevens", context: context(try november())).data
        let daily = try #require(data["daily"]?.arrayValue)
        #expect(daily.count == 14)
        #expect(daily.first?["date"] == "2026-11-13")
        #expect(daily.last?["date"] == "2026-11-26")
        // Each PST day's last valid depth (Nov 25's 23:00 is missing, its 22:00 edited value counts).
        #expect(daily.compactMap { $0["depthIn"]?.doubleValue } == [40, 40, 40, 40, 40, 40, 44, 44, 44, 44, 50, 50, 58, 58])
    }

    @Test func duplicateSensorsReadTheLowestOrdinal() throws {
        let body: JSONValue = [["stationTriplet": "791:WA:SNTL", "data": [
            ["stationElement": ["elementCode": "SNWD", "ordinal": 3, "heightDepth": .null], "values": [["date": "2026-11-26 10:00", "value": 70, "qcFlag": "V"]]],
            ["stationElement": ["elementCode": "SNWD", "ordinal": 1, "heightDepth": .null], "values": [["date": "2026-11-26 10:00", "value": 50, "qcFlag": "V"]]],
            ["stationElement": ["elementCode": "SNWD", "ordinal": 2, "heightDepth": .null], "values": [["date": "2026-11-26 10:00", "value": 60, "qcFlag": "V"]]],
        ]]]
        let readings = try StationReadings(document: body, triplet: try StationTriplet(id: "791", state: "WA", network: "SNTL"), source: "test")
        #expect(readings.latest(.depth)?.value == 50)
        #expect(readings.ordinals[.depth] == 1)
    }

    @Test func julyReadingIsPSTNotPDT() async throws {
        let http = RecordingHTTPClient([Path.stations: try .jsonFixture(Body.stationsWA), Path.data: try .jsonFixture(Body.stevensJuly)])
        let july = Timestamp.parse("2026-07-01T20:30:00Z")!
        let data = try await makeSource().resolve("snowpack:station:791:WA:SNTL", context: context(http, now: july)).data
        // 12:00 PST is 20:00Z; read in America/Los_Angeles (PDT) it would be 19:00Z.
        #expect(data["reading"]?["time"] == "2026-07-01T20:00:00Z")
        #expect(data["reading"]?["pst"] == "2026-07-01T12:00:00-08:00")
        #expect(data["status"] == "current")
        #expect(data["depthIn"]?.doubleValue == 0)
        #expect(data["airTempF"]?.doubleValue == 64.2)
        // The window asked: PST days, July 1 and 14 days before.
        #expect(http.requests(to: Path.data).first?.url.absoluteString.hasSuffix("beginDate=2026-06-17%2000:00&endDate=2026-07-01%2023:59") == true)
    }

    @Test func pacificStandardTimeAllYear() {
        #expect(PacificStandardTime.instant("2026-07-01 12:00") == Timestamp.parse("2026-07-01T20:00:00Z"))
        #expect(PacificStandardTime.instant("2026-01-15 00:00") == Timestamp.parse("2026-01-15T08:00:00Z"))
        #expect(PacificStandardTime.instant("2026-03-08 02:30") == Timestamp.parse("2026-03-08T10:30:00Z"))  // no DST gap
        #expect(PacificStandardTime.instant("2026-02-30 10:00") == nil)
        #expect(PacificStandardTime.instant("2026-07-01T12:00Z") == nil)
        #expect(PacificStandardTime.instant("2026-07-01 24:00") == nil)
        #expect(PacificStandardTime.isoString(Timestamp.parse("2026-07-02T03:00:00Z")!) == "2026-07-01T19:00:00-08:00")
        #expect(PacificStandardTime.day(Timestamp.parse("2026-07-02T07:59:00Z")!).iso == "2026-07-01")
        #expect(PacificStandardTime.day(Timestamp.parse("2026-07-02T08:00:00Z")!).iso == "2026-07-02")
    }

    @Test func staleStationIsMarked() async throws {
        let data = try await makeSource().resolve("snowpack:stevens", context: context(try november(stevens: Body.stevensStale))).data
        #expect(data["status"] == "stale")
        #expect(data["reading"]?["time"] == "2026-11-26T04:00:00Z")
        #expect(data["reading"]?["ageHours"]?.doubleValue == 14.5)
        #expect(data["depthIn"]?.doubleValue == 50)
        // Six hours is still current.
        let sixHours = Timestamp.parse("2026-11-26T10:00:00Z")!
        let http = try november(stevens: Body.stevensStale)
        #expect(try await makeSource().resolve("snowpack:stevens", context: context(http, now: sixHours)).data["status"] == "current")
    }

    @Test func stationWithNoValuesIsAPlainAnswer() async throws {
        let data = try await makeSource().resolve("snowpack:stevens", context: context(try november(stevens: Body.stevensNoValues))).data
        #expect(data["status"] == "no data")
        #expect(data["depthIn"] == .null)
        #expect(data["reading"] == .null)
        #expect(data["daily"] == .array([]))
        #expect(data.notes == ["no values reported in the last 14 days"])
        let lines = presentation.render(data, context: textContext("snowpack:stevens"))
        #expect(lines.first == "snowpack:stevens  Stevens Pass (791:WA:SNTL): no data")
        #expect(presentation.changeKey(data).status == "no data")
    }

    @Test func missingValueIsNeverZero() throws {
        let body: JSONValue = [["stationTriplet": "791:WA:SNTL", "data": [
            ["stationElement": ["elementCode": "SNWD", "ordinal": 1], "values": [
                ["date": "2026-11-25 10:00", "value": 40, "qcFlag": "V"],
                ["date": "2026-11-26 09:00", "value": 44],
                ["date": "2026-11-26 10:00", "value": .null],
                ["date": "2026-11-26 11:00"],
                ["date": "not a date", "value": 1],
            ]],
        ]]]
        let triplet = try StationTriplet(id: "791", state: "WA", network: "SNTL")
        let readings = try StationReadings(document: body, triplet: triplet, source: "test")
        #expect(readings.latest(.depth)?.value == 44)
        #expect(readings.skipped[.depth] == StationReadings.Skipped(suspect: [:], missing: 2, unreadable: 1))
        let station = try #require(Station(json: ["stationTriplet": "791:WA:SNTL", "name": "Stevens Pass", "latitude": 47.74, "longitude": -121.09]))
        let report = SnowpackReport(station: station, readings: readings, place: .null, now: novemberMorning).json
        // The latest depth is 09:00; 24 hours before it nothing was kept.
        #expect(report["changes"]?["24h"]?["depthIn"] == .null)
        #expect(report.notes.contains("skipped 1 SNWD value with an unreadable date"))
        #expect(report.notes.contains("24 h change of SNWD unavailable: no valid value at 2026-11-25 09:00 PST"))
    }
}

extension JSONValue {
    /// The report's notes, as strings.
    var notes: [String] { (self["notes"]?.arrayValue ?? []).compactMap(\.stringValue) }
}

/// A report pinned to an instant the data runs past (`--now` in the past) reads only what was
/// there by then.
@Suite struct PinnedClockTests {
    @Test func valuesAfterNowAreLeftOut() async throws {
        // 06:30 PST: the latest hour is 06:00 (h = 4), 24 h before it 50 in.
        let early = Timestamp.parse("2026-11-26T14:30:00Z")!
        let data = try await makeSource().resolve("snowpack:stevens", context: context(try november(), now: early)).data
        #expect(data["reading"]?["time"] == "2026-11-26T14:00:00Z")
        #expect(data["status"] == "current")
        #expect(data["depthIn"]?.doubleValue == 58)
        #expect(data["changes"]?["24h"]?["depthIn"]?.doubleValue == 8)
        // Hours 07:00 to 10:00 of three elements.
        #expect(data.notes.first == "left out 12 values after the report's time")
    }
}
