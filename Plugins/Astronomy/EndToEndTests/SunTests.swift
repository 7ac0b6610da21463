import Foundation
import TestHarness
import Testing

/// `sun:` URNs end to end through the built binary: the shipped config routes them to the
/// Astronomy module, which computes them on the spot.
@Suite struct SunTests {
    let config = CLI.packageRoot.appendingPathComponent("sources.json").path

    @Test func aDayInSeattleAsText() async throws {
        let run = try await CLI.run(["--config", config, "--now", "2026-06-21T19:00:00Z", "sun:2026-06-21", "sun:now"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let day = [
            "  ☀️ sunrise 05:11, sunset 21:10 PDT, 15h 59m of daylight",
            "  solar noon 13:11 PDT (Seattle)",
            "  dawn: astronomical 02:03, nautical 03:34, civil 04:30 PDT",
            "  dusk: civil 21:51, nautical 22:48, astronomical 00:19 PDT (next day)",
            "  golden hour: 04:47–05:59 and 20:22–21:35 PDT",
            "  blue hour: 04:30–04:47 and 21:35–21:51 PDT",
        ]
        // sun:now at the pinned clock is the same day.
        #expect(run.stdoutLines == ["sun:2026-06-21" + day[0]] + day.dropFirst() + ["sun:now" + day[0]] + day.dropFirst())
    }

    @Test func jsonCarriesTheDayAndItsRoute() async throws {
        let run = try await CLI.run(["--config", config, "--format", "json", "sun:2026-12-21"])
        #expect(run.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let result = try #require(array.first)
        #expect(result["route"] as? String == "sun:{date}")
        #expect(result["source"] as? String == "astronomy")
        let data = try #require(result["data"] as? [String: Any])
        #expect(data["date"] as? String == "2026-12-21")
        #expect(data["sunrise"] as? String == "2026-12-21T15:54:50Z")
        #expect(data["polar"] is NSNull)
        #expect((data["twilight"] as? [String: Any])?.keys.sorted() == ["astronomical", "civil", "nautical"])
    }

    @Test func polarDayAndNightInTromso() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sources.json")
        try #"""
        {"location": {"name": "Tromsø", "latitude": 69.6492, "longitude": 18.9553, "timeZone": "Europe/Oslo"},
         "sources": {"astronomy": {"module": "Astronomy"}}, "routes": {"sun": "astronomy", "moon": "astronomy"}}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let run = try await CLI.run(["--config", file.path, "sun:2026-06-21", "sun:2026-12-21"])
        #expect(run.status == 0)
        #expect(run.stdoutLines == [
            "sun:2026-06-21  ☀️ The sun does not set (midnight sun)",
            "  solar noon 12:46 CEST (Tromsø)",
            "  golden hour: until 02:56 and from 22:35 CEST",
            "sun:2026-12-21  🌌 The sun does not rise (polar night)",
            "  solar noon 11:42 CET (Tromsø)",
            "  dawn: astronomical 06:28, nautical 07:46, civil 09:31 CET",
            "  dusk: civil 13:53, nautical 15:37, astronomical 16:56 CET",
            "  golden hour: 10:29–12:54 CET",
            "  blue hour: 09:31–10:29 and 12:54–13:53 CET",
        ])
    }

    @Test func aBadDateIsOneLineAndExitOne() async throws {
        let run = try await CLI.run(["--config", config, "sun:2026-13-01"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == [#"conditions: sun:2026-13-01: invalidArguments: invalid date "2026-13-01": expected now, an ISO 8601 date such as 2026-12-04 (local noon) or a date-time such as 2026-12-04T1800Z or 2026-12-04T18%3A00Z"#])
    }
}
