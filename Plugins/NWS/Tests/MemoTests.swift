import NWSStandIn
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMemo
import Foundation
import TestHarness
import Testing
@testable import NWS

/// One `/points` lookup per place: shared through the memo the host hands every URN of the
/// instance, kept for a day, looked up again when the grid it names is gone.
@Suite struct MemoTests {
    @Test func thePointIsLookedUpOncePerPlaceThroughTheMemo() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        let source = try makeSource(standIn)
        let memo = FreshValues<JSONValue>().memo
        // At once, as a report resolves them, and one after the other.
        async let daily = resolve("forecast:stevens", with: source, memo: memo)
        async let hourly = resolve("forecast:stevens:hourly", with: source, memo: memo)
        _ = try await (daily, hourly)
        _ = try await resolve("forecast:Stevens", with: source, memo: memo)
        // The same point written as coordinates is the same lookup.
        _ = try await resolve("forecast:47.745,-121.093333", with: source, memo: memo)
        #expect(standIn.requests("/points").count == 1)
        _ = try await resolve("forecast:snoqualmie", with: source, memo: memo)
        #expect(standIn.requests("/points").map(\.path) == ["/points/\(Place.stevensPoint)", "/points/47.41,-121.4058"])

        // A day later the point is asked again.
        _ = try await resolve("forecast:stevens", with: source, now: morning.addingTimeInterval(86_400), memo: memo)
        #expect(standIn.requests("/points").count == 3)

        // Without a memo shared between URNs (each context its own), every forecast asks.
        _ = try await resolve("forecast:stevens", with: source)
        _ = try await resolve("forecast:stevens", with: source)
        #expect(standIn.requests("/points").count == 5)
    }

    @Test func aFailedLookupIsNotKept() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        let source = try makeSource(standIn)
        let memo = FreshValues<JSONValue>().memo
        standIn.fail("/points/\(Place.stevensPoint)", times: 1, with: standIn.unexpectedProblem())
        #expect(await resolveError("forecast:stevens", with: source, memo: memo) != nil)
        _ = try await resolve("forecast:stevens", with: source, memo: memo)
        #expect(standIn.requests("/points").count == 2)
    }

    /// NWS moves points between grids now and then: a kept grid whose forecast is gone (404)
    /// is looked up again, once.
    @Test func aGoneGridIsLookedUpAgain() async throws {
        let old = "https://api.weather.gov/gridpoints/SEW/160,60/forecast"
        let new = "https://api.weather.gov/gridpoints/SEW/163,68/forecast"
        let points = "https://api.weather.gov/points/\(Place.stevensPoint)"
        let body = { @Sendable (forecast: String) in #"{"properties": {"forecast": "\#(forecast)", "forecastHourly": "\#(forecast)/hourly", "gridId": "SEW", "gridX": 1, "gridY": 2}}"# }
        let forecast = try NWSStandIn.fixture("derived/forecast_SEW_163_68.json")
        let source = try makeSource()
        let memo = FreshValues<JSONValue>().memo
        // Kept from an earlier run: the old grid.
        _ = try await memo.value(for: "points/\(Place.stevensPoint)", maxAge: 86_400, now: morning) {
            try NWSGrid(pointsBody: Data(body(old).utf8), url: URL(string: points)!).json
        }
        let http = RecordingHTTPClient([points: .geoJSON(body(new)), new: .geoJSON(forecast),
                                        "https://api.weather.gov/alerts/active?point=\(Place.stevensPoint)": .geoJSON(#"{"features": []}"#)],
                                       fallback: .problemNotFound)
        let result = try await resolve("forecast:stevens", with: source, http: http, memo: memo)
        #expect(result.periods.count == 14)
        #expect(http.requests.map(\.url.absoluteString).filter { !$0.contains("alerts") } == [old, points, new])
        // Kept since: the next forecast goes straight to the new grid.
        _ = try await resolve("forecast:stevens", with: source, http: http, memo: memo)
        #expect(http.requests.map(\.url.absoluteString).filter { !$0.contains("alerts") }.suffix(1) == [new])

        // A grid still answering 404 after a fresh lookup is the answer, not a loop.
        let stuck = RecordingHTTPClient([points: .geoJSON(body(old))], fallback: .problemNotFound)
        let error = try #require(await resolveError("forecast:stevens:hourly", with: source, http: stuck, memo: FreshValues<JSONValue>().memo) as? ConditionsError)
        #expect(error.kind == .notFound)
        #expect(stuck.requests.map(\.url.absoluteString) == [points, old + "/hourly", points])
    }
}
