import NWSStandIn
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMemo
import ConditionsText
import Foundation
import TestHarness
import Testing
@testable import NWS

/// `sky:{place}` through the source: the point's lookup shared with the forecasts, the grid URL
/// it gives (or, for an older memo entry, the one built from its grid), the stand-in serving the
/// real TAE body re-timed to the hour asked.
@Suite struct SkySourceTests {
    /// The stand-in's clock pinned to `morning`, the hour the tests resolve at.
    func pinnedStandIn() throws -> NWSStandIn {
        let standIn = try standIn()
        standIn.pinClock(morning)
        return standIn
    }

    @Test func skyFollowsThePointsGridDataURL() async throws {
        let standIn = try pinnedStandIn()
        defer { standIn.stop() }
        let result = try await resolve("sky:stevens", with: try makeSource(standIn))
        #expect(result.kind == .sky)
        // The shape `night:` (Astronomy) reads: keep it.
        #expect(result.data.objectValue?.keys == ["place", "point", "grid", "timeZone", "updated", "url", "notes", "hours"])
        #expect(result.data["place"]?["name"] == "Stevens Pass")
        #expect(result.data["grid"] == "SEW 163,68")
        #expect(result.data["timeZone"] == "America/Los_Angeles")
        #expect(result.data["notes"] == [])
        let hours = try #require(result.data["hours"]?.arrayValue)
        #expect(hours.count == 48)
        // Morning is 15:30 UTC: the first hour is 15:00, the body's first (2022-02-03T21:00, re-timed).
        #expect(hours[0] == ["time": "2025-11-02T15:00:00Z", "skyCover": 71, "precipChance": 8, "humidity": 73, "visibilityM": 16093])
        #expect(hours[47]["time"] == "2025-11-04T14:00:00Z")
        #expect(hours.prefix(6).map { $0["skyCover"] } == [71, 73, 79, 82, 80, 79])
        #expect(hours[3]["precipChance"] == 1)
        // The capture's visibility ends 37 hours in.
        #expect(hours[36]["visibilityM"] == 15900 && hours[37]["visibilityM"] == .null)
        // 2022-02-04T03:15:41Z, moved by the same hours as every interval.
        #expect(result.data["updated"] == "2025-11-02T21:15:41Z")
        #expect(result.ttl == 1800)
        #expect(standIn.requests("/gridpoints").map(\.path) == ["/gridpoints/SEW/163,68"])
        #expect(standIn.server.requests.allSatisfy { $0.headers["user-agent"] == "conditions/0.1.0" && $0.headers["accept"] == "application/geo+json" })
    }

    @Test func skyAndTheForecastShareOneLookup() async throws {
        let standIn = try pinnedStandIn()
        defer { standIn.stop() }
        let source = try makeSource(standIn)
        let memo = FreshValues<JSONValue>().memo
        _ = try await resolve("forecast:snoqualmie:hourly", with: source, memo: memo)
        let sky = try await resolve("sky:snoqualmie", with: source, memo: memo)
        #expect(sky.data["grid"] == "SEW 151,53")
        #expect(standIn.requests("/points").count == 1)
        #expect(standIn.requests("/gridpoints").map(\.path) == ["/gridpoints/SEW/151,53/forecast/hourly", "/gridpoints/SEW/151,53"])
    }

    /// A grid kept before `sky:` existed has no `gridData`: the URL is built from its office and
    /// cell, without asking `/points` again; with no cell to build from, the point is asked again.
    @Test func anOlderMemoEntryStillAnswers() async throws {
        let standIn = try pinnedStandIn()
        defer { standIn.stop() }
        let source = try makeSource(standIn)
        let base = standIn.baseURL.absoluteString
        let memo = FreshValues<JSONValue>().memo
        _ = try await memo.value(for: "points/\(Place.stevensPoint)", maxAge: 86_400, now: morning) {
            ["forecast": .string("\(base)/gridpoints/SEW/163,68/forecast"), "forecastHourly": .string("\(base)/gridpoints/SEW/163,68/forecast/hourly"),
             "office": "SEW", "gridX": 163, "gridY": 68, "timeZone": "America/Los_Angeles", "nearby": "Skykomish, WA"]
        }
        let built = try await resolve("sky:stevens", with: source, memo: memo)
        #expect(built.data["hours"]?.arrayValue?.count == 48)
        #expect(standIn.requests("/points").isEmpty)
        #expect(standIn.requests("/gridpoints").map(\.path) == ["/gridpoints/SEW/163,68"])

        let bare = FreshValues<JSONValue>().memo
        _ = try await bare.value(for: "points/47.41,-121.4058", maxAge: 86_400, now: morning) {
            ["forecast": .string("\(base)/gridpoints/SEW/151,53/forecast"), "forecastHourly": .string("\(base)/gridpoints/SEW/151,53/forecast/hourly")]
        }
        let looked = try await resolve("sky:snoqualmie", with: source, memo: bare)
        #expect(looked.data["grid"] == "SEW 151,53")
        #expect(standIn.requests("/points").map(\.path) == ["/points/47.41,-121.4058"])
        // Kept since, with the URL: no third lookup.
        _ = try await resolve("sky:snoqualmie", with: source, memo: bare)
        #expect(standIn.requests("/points").count == 1)
    }

    @Test func placesAndNWSsErrorsAreAsForForecasts() async throws {
        let standIn = try pinnedStandIn()
        defer { standIn.stop() }
        let source = try makeSource(standIn)
        let unknown = try #require(await resolveError("sky:stevns", with: source) as? ConditionsError)
        #expect(unknown.kind == .notFound && unknown.suggestions == ["sky:stevens"])
        let range = try #require(await resolveError("sky:95,10", with: source) as? ConditionsError)
        #expect(range.kind == .invalidArguments)
        standIn.fail("/gridpoints/SEW/163,68", times: 1, with: standIn.gridExpired())
        let expired = try #require(await resolveError("sky:stevens", with: source) as? ConditionsError)
        #expect(expired.kind == .upstream)
        #expect(expired.message.hasPrefix("NWS: Forecast Grid Expired (HTTP 503, ForecastGridExpired) for the sky grid for stevens:"), "\(expired.message)")
        // The stand-in's re-timing unpinned: a grid as of now, not a stale one.
        standIn.pinClock(nil)
        let now = try await resolve("sky:stevens", with: source, now: Date())
        #expect(now.data["hours"]?.arrayValue?.first?["skyCover"] == 71)
    }

    /// The stand-in's re-timing moves every timestamp by the same whole hours and nothing else.
    @Test func theStandInRetimesTheRealBodyToTheHour() throws {
        let real = try NWSStandIn.fixture("real/nws_gridpoints_TAE_58_65_2022-02-04.json")
        let retimed = NWSStandIn.retimed(real, to: Timestamp.parse("2026-11-26T21:47:10Z")!)
        #expect(retimed.contains(#""validTimes": "2026-11-26T21:00:00+00:00/P7DT14H""#))
        #expect(retimed.contains(#""updateTime": "2026-11-27T03:15:41+00:00""#))
        #expect(!retimed.contains("2022-"))
        #expect(retimed.replacingOccurrences(of: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}"#, with: "", options: .regularExpression)
            == real.replacingOccurrences(of: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}"#, with: "", options: .regularExpression))
    }
}
