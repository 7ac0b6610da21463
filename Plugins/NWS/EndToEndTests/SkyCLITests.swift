import ConditionsKit
import ConditionsKitTesting
import Foundation
import LoopbackServer
import NWSStandIn
import TestHarness
import Testing

/// `sky:{place}` (issue 34) through the built binary, against the loopback stand-in serving the
/// real TAE 58,65 gridpoints body re-timed to the report's hour: the point's lookup, the grid
/// URL it gives, 48 hours in ndjson, the cloud strip in text.
@Suite struct SkyCLITests {
    /// 06:20 PST: the stand-in moves the real body's first hour (2022-02-03T21:00Z) to 14:00Z.
    static let now = "2026-11-21T14:20:00Z"

    /// A started stand-in pinned to `now` and a config routing `sky` to its `nws` instance.
    static func setUp() throws -> (NWSStandIn, URL) {
        let standIn = try NWSStandIn()
        try standIn.start()
        standIn.pinClock(ISO8601DateFormatter().date(from: now))
        let dir = try Upstream.config(
            sources: #""nws": {"module": "NWS", "options": {"baseURL": "\#(standIn.baseURL.absoluteString)"}}"#,
            routes: #""forecast": "nws", "sky": "nws""#, extra: ", " + NWSCLITests.places)
        return (standIn, dir)
    }

    @Test func skyAnswersFortyEightHoursOfTheRealGrid() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--no-cache", "--now", Self.now, "--format", "ndjson", "sky:stevens"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let record = try #require(try NWSCLITests.records(run).first)
        #expect(record["urn"] as? String == "sky:stevens" && record["source"] as? String == "nws")
        let data = try #require(record["data"] as? [String: Any])
        #expect(data["grid"] as? String == "SEW 163,68")
        #expect(data["updated"] as? String == "2026-11-21T20:15:41Z")
        let hours = try #require(data["hours"] as? [[String: Any]])
        #expect(hours.count == 48)
        #expect(hours.first?["time"] as? String == "2026-11-21T14:00:00Z" && hours.last?["time"] as? String == "2026-11-23T13:00:00Z")
        // The capture's first hours: sky cover hour by hour, the chance of precipitation in
        // 3- and 6-hour intervals, humidity's 9-hour 97 %, visibility ending after 37 hours.
        #expect(hours.prefix(8).map { $0["skyCover"] as? Int } == [71, 73, 79, 82, 80, 79, 82, 77])
        #expect(hours.prefix(10).map { $0["precipChance"] as? Int } == [8, 8, 8, 1, 1, 1, 1, 1, 1, 20])
        #expect(hours[5...14].map { $0["humidity"] as? Int } == [97, 97, 97, 97, 97, 97, 97, 97, 97, 100])
        #expect(hours[0]["visibilityM"] as? Int == 16093 && hours[36]["visibilityM"] as? Int == 15900)
        #expect(hours[37]["visibilityM"] is NSNull, "no value is null, never 0")
        #expect(standIn.requests("/points").map(\.path) == ["/points/\(Place.stevensPoint)"])
        #expect(standIn.requests("/gridpoints").map(\.path) == ["/gridpoints/SEW/163,68"])

        let text = try await CLI.run(["--no-cache", "--now", Self.now, "sky:stevens"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutLines == [
            "sky:stevens  Stevens Pass · SEW 163,68 · updated Sat Nov 21 12:15 PST",
            "  Clouds         06:00 PST ▆▆▇▇▇▇▇▆▆▅▆▆▆▇▇▇█▇▇▇▇▇▇▇▇█▇▇█▇▇█████▇▇▆▆▅▅▄▄▄▄▃▃ 05:00 PST",
            "                 ▁ clear … █ overcast, · no value; now mostly cloudy (71%)",
            "  Precip chance  1–87%, highest Sun Nov 22 00:00 PST",
            "  Humidity       45–100%",
            "  Visibility     5.6–16 km",
        ])
    }
}
