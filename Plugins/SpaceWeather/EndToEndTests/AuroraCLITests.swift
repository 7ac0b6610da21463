import ConditionsKit
import ConditionsKitTesting
import Foundation
import LoopbackServer
import SpaceWeatherStandIn
import TestHarness
import Testing

/// The aurora forecast (issue 34) through the built binary, against the loopback stand-in for
/// NOAA SWPC: `aurora:now` in SWPC's old form and in its new, `aurora:stevens` in JSON with the
/// OVATION grid, an HTML page with 200, and `watch` telling a new G-level from Kp moving
/// within one.
@Suite struct AuroraCLITests {
    static let places = #""places": {\#(Place.stevensConfig)}"#

    /// A started stand-in and a config whose `aurora` instance reads it.
    static func setUp() throws -> (SWPCStandIn, URL) {
        let standIn = try SWPCStandIn()
        try standIn.start()
        let dir = try Upstream.config(
            sources: #""spaceweather": {"module": "SpaceWeather", "options": {"baseURL": "\#(standIn.baseURL.absoluteString)"}}"#,
            routes: #""aurora": "spaceweather", "moon": "astronomy""#, extra: ", " + places)
        return (standIn, dir)
    }

    static func records(_ output: CLI.Output) throws -> [[String: Any]] {
        try output.stdoutLines.map { try Upstream.json($0) }
    }

    @Test func nowInTheOldForm() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--no-cache", "--now", SWPCStandIn.oldNow, "aurora:now"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines == [
            "aurora:now  Kp 4+ now, next 24 h up to 5+ (G1 minor storm) at Wed Feb 4 19:00 PST",
            "  3 days    up to 5+ (G1 minor storm) at Wed Feb 4 19:00 PST",
            "  observed  Kp 4+ (4.33) for the 3 h from Wed Feb 4 16:00 PST",
        ], "\(run.stdout)")
        #expect(standIn.requests(SWPCStandIn.ovationPath).isEmpty, "aurora:now never asks for the grid")
    }

    @Test func nowInTheNewForm() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        standIn.serve(.new)
        let run = try await CLI.run(["--no-cache", "--now", SWPCStandIn.newNow, "--format", "ndjson", "aurora:now"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let record = try #require(try Self.records(run).first)
        let data = try #require(record["data"] as? [String: Any])
        #expect(record["route"] as? String == "aurora:now")
        #expect(data["formats"] as? [String: String] == ["kp": "new", "forecast": "new"])
        let observed = try #require(data["observed"] as? [String: Any])
        #expect(observed["kp"] as? Double == 3.33)
        #expect(observed["kpText"] as? String == "3+")
        #expect(observed["time"] as? String == "2026-08-31T09:00:00Z")
        let next = try #require(data["next24h"] as? [String: Any])
        #expect(next["kpText"] as? String == "4-")
        #expect(next["gScale"] as? String == "G0")
        #expect(next["time"] as? String == "2026-08-31T21:00:00Z")
    }

    /// A place: the OVATION cell of Stevens Pass (48° N, 239° E) with the grid's times, and the
    /// names `night:` reads (`next24h.gScale`, `ovation.probability`).
    @Test func stevensInJSON() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--no-cache", "--now", SWPCStandIn.oldNow, "--format", "json", "aurora:stevens", "aurora:now"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["urn"] as? String } == ["aurora:stevens", "aurora:now"])
        #expect(array.map { $0["source"] as? String } == ["spaceweather", "spaceweather"])
        let data = try #require(array[0]["data"] as? [String: Any])
        #expect((data["next24h"] as? [String: Any])?["gScale"] as? String == "G1")
        let ovation = try #require(data["ovation"] as? [String: Any])
        #expect(ovation["probability"] as? Int == 0)
        #expect(ovation["latitude"] as? Int == 48)
        #expect(ovation["longitude"] as? Int == 239)
        #expect(ovation["forecastTime"] as? String == "2025-01-12T22:51:00Z")
        #expect((data["place"] as? [String: Any])?["name"] as? String == "Stevens Pass")
        #expect(standIn.requests(SWPCStandIn.ovationPath).count == 1)
        #expect(standIn.requests(SWPCStandIn.kpPath).count == 1, "both URNs share one K-index request")
    }

    @Test func anHTMLPageIsOneLine() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        standIn.answerWithHTML()
        let run = try await CLI.run(["--no-cache", "aurora:now", "moon:now"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderrLines.first?.hasPrefix("conditions: aurora:now: badResponse: ") == true, "\(run.stderr)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("moon:now") })
    }

    /// `watch` on the real clock: forecasts moved so a chosen period is under way now. Kp
    /// moving within G0 is not a change; the G1 period coming into the next 24 hours is; the
    /// same again is not.
    @Test func watchReportsANewGLevel() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let quiet = try standIn.forecast(.old, periodNow: "2026-02-03 12:00:00")       // up to 2+ in 24 h
        let wobble = try standIn.forecast(.old, periodNow: "2026-02-03 15:00:00")      // up to 4-
        let storm = try standIn.forecast(.old, periodNow: "2026-02-04 06:00:00")       // 5+ (G1) ahead
        #expect(Set([quiet, wobble, storm]).count == 3)
        standIn.queueForecasts([quiet, wobble, storm, storm])
        let run = try await CLI.run(["watch", "--no-cache", "--every", "1s", "--count", "4", "--format", "ndjson", "aurora:now"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try Self.records(run)
        #expect(events.map { "\($0["event"] ?? "")" } == ["initial", "change"], "\(run.stdout)")
        #expect(events.last?["before"] as? String == "G0")
        #expect(events.last?["after"] as? String == "G1")
        #expect(standIn.requests(SWPCStandIn.forecastPath).count == 4)
    }
}
