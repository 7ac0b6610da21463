import ConditionsKit
import ConditionsKitTesting
import Foundation
import LoopbackServer
import NWSStandIn
import TestHarness
import Testing

/// The NWS module through the built binary (issue 25), against the loopback stand-in for
/// api.weather.gov built on real and derived bodies: the host's retries of 500/503 (twice),
/// one `/points` lookup per place kept across runs in the cache folder, NWS's errors per URN,
/// `watch` over alerts and re-issued forecasts, and the shipped config's offline profile.
@Suite struct NWSCLITests {
    static let places = #""places": {\#(Place.stevensConfig), "#
        + #""snoqualmie": {"name": "Snoqualmie Pass", "latitude": 47.41, "longitude": -121.405833}, "puget-sound": {"latitude": 47.6, "longitude": -122.5}}"#

    /// A started stand-in and a config whose `nws` instance reads it, `options` added.
    static func setUp(options: String = "") throws -> (NWSStandIn, URL) {
        let standIn = try NWSStandIn()
        try standIn.start()
        let dir = try Upstream.config(
            sources: #""nws": {"module": "NWS", "options": {"baseURL": "\#(standIn.baseURL.absoluteString)"\#(options)}}"#,
            routes: #""forecast": "nws", "alerts": "nws", "moon": "astronomy""#, extra: ", " + places)
        return (standIn, dir)
    }

    static func records(_ output: CLI.Output) throws -> [[String: Any]] {
        try output.stdoutLines.map { try Upstream.json($0) }
    }

    @Test func anExpiredGridIsRepeatedTwiceThenAnswers() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        // The first repeat waits for Retry-After (0), the second for the backoff (1 s: doubled).
        standIn.fail("/gridpoints/SEW/163,68/forecast", times: 1, with: standIn.gridExpired(retryAfter: "0"))
        standIn.fail("/gridpoints/SEW/163,68/forecast", times: 1, with: standIn.unexpectedProblem())
        let run = try await CLI.run(["--no-cache", "--format", "ndjson", "forecast:stevens"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let record = try #require(try Self.records(run).first)
        #expect((record["data"] as? [String: Any])?["grid"] as? String == "SEW 163,68")
        #expect(standIn.requests("/gridpoints/SEW/163,68/forecast").count == 3)

        // Three failures: NWS's own words for the URN, after two repeats; the moon still answers.
        for _ in 0..<3 { standIn.fail("/gridpoints/SEW/163,68/forecast", times: 1, with: standIn.gridExpired(retryAfter: "0")) }
        standIn.server.resetStats()
        let failed = try await CLI.run(["--no-cache", "--format", "ndjson", "forecast:stevens", "moon:now"], in: dir)
        #expect(failed.status == 1)
        let records = try Self.records(failed)
        let error = try #require(records.first?["error"] as? [String: Any])
        #expect(error["kind"] as? String == "upstream")
        #expect(error["message"] as? String
            == "NWS: Forecast Grid Expired (HTTP 503, ForecastGridExpired) for the forecast for stevens: The requested forecast grid was issued 2025-11-02T03:12:00+00:00 and has expired. (retry after 0)")
        #expect(records.last?["data"] != nil)
        #expect(standIn.requests("/gridpoints/SEW/163,68/forecast").count == 3, "the first try and two repeats")
        // Text mode: one line on stderr.
        for _ in 0..<3 { standIn.fail("/gridpoints/SEW/163,68/forecast", times: 1, with: standIn.gridExpired(retryAfter: "0")) }
        let text = try await CLI.run(["--no-cache", "forecast:stevens"], in: dir)
        #expect(text.status == 1)
        #expect(text.stderrLines == ["conditions: forecast:stevens: upstream: NWS: Forecast Grid Expired (HTTP 503, ForecastGridExpired) for the forecast for stevens: The requested forecast grid was issued 2025-11-02T03:12:00+00:00 and has expired. (retry after 0)"])
    }

    @Test func oneLookupPerPlaceKeptAcrossRuns() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        // Results stale at once, so each run fetches forecasts again; the point's grid is kept.
        standIn.setCacheControl("forecast", "public, max-age=0")
        standIn.setCacheControl("alerts", "public, max-age=0")
        let cache = dir.appendingPathComponent("cache").path
        let urns = ["forecast:stevens", "forecast:stevens:hourly", "alerts:stevens", "forecast:Stevens", "forecast:47.745,-121.093333"]
        let first = try await CLI.run(["--cache-dir", cache, "--format", "ndjson"] + urns, in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(standIn.requests("/points").count == 1, "one lookup per place per run")
        #expect(standIn.requests("/gridpoints").count == 2, "the forecast and the hourly forecast, each once")
        #expect(standIn.requests("/alerts").count == 1, "the forecast's alerts and alerts:stevens are one request")
        let second = try await CLI.run(["--cache-dir", cache, "--format", "ndjson", "forecast:stevens", "forecast:snoqualmie"], in: dir)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(standIn.requests("/points").map(\.path) == ["/points/\(Place.stevensPoint)", "/points/47.41,-121.4058"], "kept across runs")
        #expect(standIn.server.requests.count { $0.path == "/gridpoints/SEW/163,68/forecast" } == 2, "the forecast itself was stale (max-age=0)")
        // --refresh looks the point up again; --no-cache keeps nothing between runs.
        _ = try await CLI.run(["--cache-dir", cache, "--refresh", "forecast:stevens"], in: dir)
        #expect(standIn.requests("/points").count == 3)
        _ = try await CLI.run(["--no-cache", "forecast:stevens"], in: dir)
        _ = try await CLI.run(["--no-cache", "forecast:stevens"], in: dir)
        #expect(standIn.requests("/points").count == 5)
    }

    @Test func freshForWhatCacheControlSays() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache")
        let first = try await CLI.run(["--cache-dir", cache.path, "alerts:stevens", "forecast:stevens:hourly"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let again = try await CLI.run(["--cache-dir", cache.path, "alerts:stevens", "forecast:stevens:hourly"], in: dir)
        #expect(again.status == 0)
        #expect(standIn.requests("/alerts").count == 1 && standIn.requests("/gridpoints").count == 1, "both fresh: from the cache")
        // Each entry carries the lifetime NWS gave it: 30 s for alerts, 900 s for the hourly forecast.
        let entries = try FileManager.default.contentsOfDirectory(at: cache, includingPropertiesForKeys: nil).compactMap { file -> [String: Any]? in
            try? Upstream.json(String(contentsOf: file, encoding: .utf8))
        }
        let ttls = Dictionary(entries.compactMap { entry in (entry["urn"] as? String).map { ($0, entry["ttl"] as? Double) } }) { a, _ in a }
        #expect(ttls["alerts:stevens"] == 30)
        #expect(ttls["forecast:stevens:hourly"] == 900)
    }

    @Test func placesAndNWSsVerdictsArePerURN() async throws {
        let (standIn, dir) = try Self.setUp(options: #", "userAgent": "conditions/0.1.0 (ops@example.com)""#)
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--no-cache", "--format", "ndjson", "forecast:puget-sound", "forecast:stevns", "alerts:95,10", "alerts:here", "forecast:snoqualmie"], in: dir)
        #expect(run.status == 1)
        let records = try Self.records(run)
        let errors = records.map { $0["error"] as? [String: Any] }
        #expect(errors[0]?["kind"] as? String == "notFound")
        #expect(errors[0]?["message"] as? String
            == "NWS: Marine Forecast Not Supported (HTTP 404, MarineForecastNotSupported) for the point 47.6,-122.5: Forecasts for marine areas are not yet supported by this API.")
        #expect(errors[1]?["kind"] as? String == "notFound")
        #expect(errors[1]?["suggestions"] as? [String] == ["forecast:stevens"])
        #expect(errors[2]?["kind"] as? String == "invalidArguments")
        #expect(records[3]["data"] != nil && records[4]["data"] != nil)
        let asked = standIn.requests("/alerts").compactMap(\.query)
        #expect(asked.contains("point=47.6097,-122.3331"), "here is the location: \(asked)")
        #expect(!standIn.server.requests.contains { $0.target.contains("95") }, "95,10 never left the process")
        #expect(standIn.server.requests.allSatisfy { $0.headers["user-agent"] == "conditions/0.1.0 (ops@example.com)" && $0.headers["accept"] == "application/geo+json" })
        // Without the option, the program and its version.
        let (plain, plainDir) = try Self.setUp()
        defer { plain.stop(); try? FileManager.default.removeItem(at: plainDir) }
        _ = try await CLI.run(["--no-cache", "alerts:stevens"], in: plainDir)
        let version = try await CLI.run(["--version"])
        #expect(plain.server.requests.first?.headers["user-agent"] == "conditions/" + version.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func badPlacesAreConfigurationErrorsNamingTheirPath() async throws {
        let dir = try Upstream.config(sources: #""nws": {"module": "NWS"}"#, routes: #""forecast": "nws""#,
                                      extra: #", "places": {"stevens": {"latitude": 147.745, "longitude": -121.09}, "Stevens": {"latitude": 1, "longitude": 2}, "here": {"latitude": 1, "longitude": 2}, "x": {"latitude": 1, "longitude": 2, "elevation": 3}}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let check = try await CLI.run(["check"], in: dir)
        #expect(check.status == 2)
        let file = dir.appendingPathComponent("sources.json").path
        #expect(check.stderrLines.contains("conditions: \(file): places.stevens.latitude: 147.745 is outside -90…90"), "\(check.stderr)")
        #expect(check.stderrLines.contains("conditions: \(file): places.Stevens: the same name as places.stevens (place names are case-insensitive)"))
        #expect(check.stderrLines.contains("conditions: \(file): places.here: \"here\" always names the config's location; choose another name"))
        #expect(check.stderrLines.contains { $0.contains("unknown option places.x.elevation") })
        let report = try await CLI.run(["forecast:stevens"], in: dir)
        #expect(report.status == 2)
    }

    /// `watch`: the alert ending is a change (for alerts and for the forecast that carries it);
    /// NWS re-issuing the alert under a new id, or the forecast unchanged, is not.
    @Test func watchReportsAlertsComingAndGoingNotReissues() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let alerts = standIn.body("derived/alerts_47.745_-121.0933.json")
        let reissuedAlerts = alerts.replacingOccurrences(of: ".001.1", with: ".003.1").replacingOccurrences(of: #""expires": "2025-11-02T18:00:00-08:00""#, with: #""expires": "2025-11-02T22:00:00-08:00""#)
        let forecast = standIn.body("derived/forecast_SEW_163_68.json")
        let reissuedForecast = forecast.replacingOccurrences(of: "2025-11-02T07:20:14-08:00", with: "2025-11-02T08:05:00-08:00")
            .replacingOccurrences(of: "2025-11-02T06:45:00-08:00", with: "2025-11-02T07:58:00-08:00")
        #expect(reissuedAlerts != alerts && reissuedForecast != forecast)
        func json(_ text: String) -> LoopbackServer.Response { .init(status: 200, headers: ["Content-Type": "application/geo+json"], body: Data(text.utf8)) }
        // One answer per poll (the forecast's alerts and alerts:stevens are one request in a poll).
        for body in [alerts, reissuedAlerts, standIn.body("derived/alerts_none.json"), standIn.body("derived/alerts_none.json")] {
            standIn.fail("/alerts/active", times: 1, with: json(body))
        }
        for body in [forecast, reissuedForecast, reissuedForecast, reissuedForecast] {
            standIn.fail("/gridpoints/SEW/163,68/forecast", times: 1, with: json(body))
        }
        let run = try await CLI.run(["watch", "--no-cache", "--every", "1s", "--count", "4", "--format", "ndjson", "alerts:stevens", "forecast:stevens"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try Self.records(run)
        #expect(events.map { "\($0["event"] ?? "")/\($0["urn"] ?? "")" } == ["initial/alerts:stevens", "initial/forecast:stevens", "change/alerts:stevens", "change/forecast:stevens"], "\(run.stdout)")
        #expect(events[2]["before"] as? String == "1 alert: Winter Weather Advisory")
        #expect(events[2]["after"] as? String == "no alerts")
        #expect(events[3]["before"] as? String == "Winter Weather Advisory")
        #expect(events[3]["after"] as? String == "35°F  Snow · wind SW 5 to 10 mph · precip 90%")
        #expect(standIn.requests("/alerts").count == 4 && standIn.requests("/points").count == 1, "one lookup for the whole watch")
    }

    /// `scripts/dev demo` runs the shipped config's report under `offline`: forecasts from
    /// `Fixtures/`, never the network.
    @Test func theOfflineProfileShowsEachPassWithItsForecastWithoutNetwork() async throws {
        let config = CLI.packageRoot.appendingPathComponent("sources.json").path
        let run = try await CLI.run(["--config", config, "--profile", "offline", "--no-cache", "--format", "ndjson"])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try Self.records(run)
        #expect(records.map { $0["urn"] as? String } == ["pass:snoqualmie", "forecast:snoqualmie", "avalanche:snoqualmie", "snowpack:snoqualmie", "pass:stevens", "forecast:stevens", "avalanche:stevens", "snowpack:stevens", "moon:now", "phases:5"])
        #expect(records.filter { ($0["urn"] as? String)?.hasPrefix("forecast:") == true }.allSatisfy { $0["source"] as? String == "fixtures" })
        let text = try await CLI.run(["--config", config, "--profile", "offline", "--no-cache", "--now", "2026-11-21T14:00:00Z", "forecast:stevens", "alerts:snoqualmie"])
        #expect(text.status == 0)
        #expect(text.stdoutLines.first == "forecast:stevens  Stevens Pass · 4,061 ft · updated Sun Nov 2 2025 06:45 PST")
        #expect(text.stdoutLines[1] == "  ⚠ Winter Weather Advisory until Mon Nov 3 2025 10:00 PST (Moderate · Expected · Likely)")
        #expect(text.stdoutLines.last == "alerts:snoqualmie  Snoqualmie Pass: no active alerts")
        let routes = try await CLI.run(["routes", "--config", config, "--profile", "offline", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(routes.stdout.utf8)) as? [[String: Any]])
        #expect(rows.filter { ($0["pattern"] as? String)?.hasPrefix("forecast:") == true || ($0["pattern"] as? String)?.hasPrefix("alerts:") == true }
            .allSatisfy { $0["source"] as? String == "fixtures" })
        // The live config routes them to NWS, with the sixteen passes as places.
        let check = try await CLI.run(["check", "--config", config])
        #expect(check.stdout.contains(" 16 places, 10 report URNs"), "\(check.stdout)")
    }
}
