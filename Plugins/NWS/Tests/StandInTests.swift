import ConditionsJSON
import ConditionsKit
import Foundation
import ConditionsKitTesting
import TestHarness
import Testing
@testable import NWS

/// The module against the loopback stand-in for api.weather.gov (real and derived bodies, NWS's
/// traps), over libcurl. The host's retries are not in this path (see the end-to-end tests):
/// here the module's own requests, decoding and errors are checked.
@Suite struct StandInTests {
    @Test func aForecastFollowsTheURLsThePointGivesAndCarriesItsAlerts() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        let result = try await resolve("forecast:stevens", with: try makeSource(standIn))

        #expect(result.kind == .forecast)
        #expect(result.data["point"] == .string(Place.stevensPoint))
        #expect(result.data["place"]?["name"] == "Stevens Pass")
        #expect(result.data["grid"] == "SEW 163,68")
        #expect(result.data["nearby"] == "Skykomish, WA")
        #expect(result.data["hourly"] == false)
        // The real values in the derived body: NWS's first three periods on WSDOT's page.
        let periods = result.periods
        #expect(periods.count == 14)
        #expect(periods.prefix(3).map { $0["name"]?.stringValue } == ["Today", "Tonight", "Monday"])
        #expect(periods.prefix(3).allSatisfy { $0["shortForecast"] == "Snow" })
        #expect(periods[0]["start"] == "2025-11-02T15:00:00Z")
        #expect(periods[0]["end"] == "2025-11-03T02:00:00Z")
        #expect(periods[0]["temperature"] == 35 && periods[0]["temperatureUnit"] == "F")
        #expect(periods[0]["windSpeed"] == "5 to 10 mph" && periods[0]["windDirection"] == "SW")
        #expect(periods[0]["precipitationChance"] == 90)
        #expect(periods[5]["precipitationChance"] == .null)
        #expect(periods[0]["detailedForecast"]?.stringValue?.hasPrefix("Snow. High near 35.") == true)
        let metres = try #require(result.data["elevationM"]?.doubleValue)
        #expect(Int((metres / 0.3048).rounded()) == 4061)
        #expect(result.data["updated"] == "2025-11-02T14:45:00Z")
        // The advisory, not the test message.
        let alerts = try #require(result.data["alerts"]?.arrayValue)
        #expect(alerts.map { $0["event"]?.stringValue } == ["Winter Weather Advisory"])
        #expect(result.data["alertsError"] == nil)
        // The shortest Cache-Control of the two answers (forecast 900 s, alerts 30 s).
        #expect(result.ttl == 30)

        // What went over the wire: the point with four decimals, then the URL it gave.
        let paths = standIn.server.requests.map(\.target).sorted()
        #expect(paths == ["/alerts/active?point=\(Place.stevensPoint)", "/gridpoints/SEW/163,68/forecast", "/points/\(Place.stevensPoint)"])
        for request in standIn.server.requests {
            #expect(request.headers["accept"] == "application/geo+json")
            #expect(request.headers["user-agent"] == "conditions/0.1.0")
        }
    }

    @Test func theHourlyForecastHasItsOwnURLAndNoAlerts() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        let result = try await resolve("forecast:stevens:hourly", with: try makeSource(standIn))
        #expect(result.data["hourly"] == true)
        #expect(result.periods.count == 24)
        #expect(result.periods.first?["name"] == "")
        #expect(result.periods.first?["temperature"] == 34)
        #expect(result.periods.first?["detailedForecast"] == .null)
        #expect(result.data["alerts"] == nil)
        #expect(result.ttl == 900)
        #expect(standIn.requests("/gridpoints").map(\.path) == ["/gridpoints/SEW/163,68/forecast/hourly"])
        #expect(standIn.requests("/alerts").isEmpty)
    }

    @Test func alertsReadEveryFieldAndLeaveTestMessagesOut() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        let source = try makeSource(standIn)
        let result = try await resolve("alerts:STEVENS", with: source)
        #expect(result.kind == .alerts)
        #expect(result.data["place"]?["id"] == "stevens")
        let alert = try #require(result.data["alerts"]?.arrayValue?.first)
        #expect(result.data["alerts"]?.arrayValue?.count == 1)
        #expect(alert["event"] == "Winter Weather Advisory")
        #expect(alert["severity"] == "Moderate" && alert["urgency"] == "Expected" && alert["certainty"] == "Likely")
        #expect(alert["headline"] == "Winter Weather Advisory issued November 2 at 3:12AM PST until November 3 at 10:00AM PST by NWS Seattle WA")
        #expect(alert["onset"] == "2025-11-02T18:00:00Z" && alert["expires"] == "2025-11-03T02:00:00Z" && alert["ends"] == "2025-11-03T18:00:00Z")
        #expect(alert["area"] == "Cascades of Snohomish and King Counties")
        #expect(alert["instruction"] == "Slow down and use caution while traveling. Carry chains, a flashlight, food and water in case of an emergency.")
        #expect(alert["description"]?.stringValue?.hasPrefix("* WHAT...Snow. Additional snow accumulations of 6 to 10 inches above 4000 feet.\n\n* WHERE...") == true)
        #expect(result.ttl == 30)
        // Alerts need no grid: no /points request.
        #expect(standIn.requests("/points").isEmpty)

        let none = try await resolve("alerts:snoqualmie", with: source)
        #expect(none.data["alerts"] == [])
        #expect(standIn.requests("/alerts").last?.query == "point=47.41,-121.4058")
    }

    @Test func theRealPointIsFollowedToTheGridItNames() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        let result = try await resolve("forecast:sumatra", with: try makeSource(standIn))
        #expect(result.data["point"] == "30,-85")
        #expect(result.data["grid"] == "TAE 58,65")
        #expect(result.data["nearby"] == "Sumatra, FL")
        #expect(result.data["timeZone"] == "America/New_York")
        #expect(standIn.requests("/gridpoints").map(\.path) == ["/gridpoints/TAE/58,65/forecast"])
    }

    /// NWS answers 301 to more than four decimals or a trailing zero; the module never sends either.
    @Test func coordinatesAreSentTheWayNWSWantsThem() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        let source = try makeSource(standIn)
        for (urn, point) in [("forecast:47.74621234,-121.08590", "47.7462,-121.0859"), ("forecast:47.7000,-121.1", "47.7,-121.1"),
                             ("forecast:47.745000,-121.093333", "\(Place.stevensPoint)"), ("forecast:-0.00001,0.0", "0,0")] {
            let result = try await resolve(urn, with: source)
            #expect(result.data["point"]?.stringValue == point, "\(urn)")
            #expect(standIn.requests("/points").last?.path == "/points/\(point)", "\(urn)")
        }
        // The trap is there: the stand-in answers the same point written otherwise with 301.
        let raw = try await curl.get(standIn.server.url("/points/47.74621234,-121.0859"), headers: ["User-Agent": "probe"])
        #expect(raw.status == 200 && raw.url.path == "/points/47.7462,-121.0859", "libcurl followed the 301's Location")
        #expect(standIn.server.requests.filter { $0.path.hasPrefix("/points/") && $0.path.contains("47.74621234") }.count == 1, "only the probe")
        standIn.server.resetStats()
        _ = try await curl.get(standIn.server.url("/points/47.7000,-121.1"), headers: ["User-Agent": "probe"])
        #expect(standIn.server.requests.map(\.path) == ["/points/47.7000,-121.1", "/points/47.7,-121.1"], "a 301 to the adjusted point")
    }

    @Test func aRequestWithoutAUserAgentIsRefusedAndTheErrorSaysSo() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        // Sent with an empty User-Agent, as a client that drops it would.
        let noUserAgent = RecordingHTTPClient { request in
            var stripped = request
            stripped.headers = request.headers.filter { $0.key.lowercased() != "user-agent" }
            stripped.headers["User-Agent"] = ""
            return try await curl.send(stripped)
        }
        let error = try #require(await resolveError("alerts:stevens", with: try makeSource(standIn), http: noUserAgent) as? ConditionsError)
        #expect(error.kind == .upstream)
        #expect(error.message.contains("HTTP 403, Access Denied"))
        #expect(error.message.contains("sources.nws.options.userAgent"))
        #expect(standIn.server.requests.last?.headers["user-agent"] == "")
        // The module's own requests always carry one.
        _ = try await resolve("alerts:stevens", with: try makeSource(standIn))
        #expect(standIn.server.requests.last?.headers["user-agent"] == "conditions/0.1.0")
    }

    @Test func aMarinePointSaysSoWithNWSsTitleAndDetail() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        let source = try makeSource(standIn)
        for urn in ["forecast:puget-sound", "forecast:47.6,-122.5:hourly"] {
            let error = try #require(await resolveError(urn, with: source) as? ConditionsError, "\(urn)")
            #expect(error.kind == .notFound)
            #expect(error.message == "NWS: Marine Forecast Not Supported (HTTP 404, MarineForecastNotSupported) for the point 47.6,-122.5: Forecasts for marine areas are not yet supported by this API.", "\(urn)")
        }
    }

    @Test func anExpiredGridIsAnUpstreamErrorCarryingNWSsWords() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        standIn.fail("/gridpoints/SEW/163,68/forecast", times: 1, with: standIn.gridExpired(retryAfter: "5"))
        let recording = RecordingHTTPClient(delegatingTo: curl)
        let error = try #require(await resolveError("forecast:stevens", with: try makeSource(standIn), http: recording) as? ConditionsError)
        #expect(error.kind == .upstream)
        #expect(error.message == "NWS: Forecast Grid Expired (HTTP 503, ForecastGridExpired) for the forecast for stevens: The requested forecast grid was issued 2025-11-02T03:12:00+00:00 and has expired. (retry after 5)")
        // Every request asks the host to repeat 500 and 503 twice (the host's own default is once, without 500).
        #expect(recording.requests.count == 3)
        for request in recording.requests {
            #expect(request.retry.attempts == 2)
            #expect(request.retry.statuses.isSuperset(of: [500, 503]))
        }
    }

    @Test func anAlertsOutageLeavesTheForecastStandingAndSaysSo() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        standIn.fail("/alerts/active", times: 1, with: standIn.unexpectedProblem())
        let result = try await resolve("forecast:stevens", with: try makeSource(standIn))
        #expect(result.periods.count == 14)
        #expect(result.data["alerts"] == .null)
        #expect(result.data["alertsError"] == "NWS: Unexpected Problem (HTTP 500, UnexpectedProblem) for the alerts for stevens: An unexpected problem has occurred.")
        #expect(result.ttl == 60)
    }

    @Test func literalCoordinatesOutOfRangeFailBeforeAnyRequest() async throws {
        let standIn = try standIn()
        defer { standIn.stop() }
        let source = try makeSource(standIn)
        for urn in ["forecast:95,10", "forecast:47.7,-181", "alerts:-90.5,0", "forecast:47.7,200:hourly"] {
            let error = try #require(await resolveError(urn, with: source) as? ConditionsError, "\(urn)")
            #expect(error.kind == .invalidArguments, "\(urn)")
            #expect(error.message.contains("expected a latitude from -90 to 90 and a longitude from -180 to 180"), "\(urn)")
        }
        for urn in ["forecast:47.7,", "forecast:47.7,-121,3", "forecast:1e2,3", "forecast:nan,0", "forecast:47.7%2C-121.1x"] {
            let error = try #require(await resolveError(urn, with: source) as? ConditionsError, "\(urn)")
            #expect(error.kind == .invalidArguments, "\(urn)")
            #expect(error.message.contains("a place name, here, or latitude,longitude in decimal degrees"), "\(urn)")
        }
        #expect(standIn.server.requests.isEmpty)
    }
}
