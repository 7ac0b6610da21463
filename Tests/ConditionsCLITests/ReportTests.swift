import Foundation
import TestHarness
import Testing

/// End-to-end reports through the built binary against the shipped fixtures.
@Suite struct ReportTests {
    let config = CLI.packageRoot.appendingPathComponent("sources.json").path

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func defaultReportPrintsEveryConfiguredURNAsText() async throws {
        let run = try await CLI.run(["--config", config, "--profile", "replay"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.contains("Snoqualmie Pass I-90  RESTRICTED"))
        #expect(run.stdout.contains("Stevens Pass US 2  RESTRICTED"))
        #expect(run.stdout.contains("Traction Tires Required, Chains Required On Vehicles Over 10,000 GVW"))
        #expect(run.stdout.contains("moon:now  🌔 waxing gibbous"))
        #expect(run.stdout.contains("phases:5"))
        // Local times in the configured zone (America/Los_Angeles), whatever TZ says.
        #expect(run.stdout.contains("PST"))
        // Piped output carries no colour escapes.
        #expect(!run.stdout.contains("\u{1B}["))
        // Order: as listed in "report".
        let snoqualmie = try #require(run.stdout.range(of: "Snoqualmie"))
        let stevens = try #require(run.stdout.range(of: "Stevens"))
        let moon = try #require(run.stdout.range(of: "moon:now"))
        #expect(snoqualmie.lowerBound < stevens.lowerBound && stevens.lowerBound < moon.lowerBound)
    }

    /// Times carry the tz database's abbreviation for their own date: PDT and PST in Seattle's
    /// 1950 (ICU alone says "GMT-7" and "GMT-8" before about 1970), with TZ=UTC in the environment.
    @Test func historicalDatesPrintTheirZoneAbbreviation() async throws {
        let run = try await CLI.run(["--config", config, "--now", "1950-07-01T12:00:00-07:00", "moon:1950-07-01", "moon:1950-01-01", "phases:1"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.stdoutLines
        let summer = try #require(lines.firstIndex { $0.hasPrefix("moon:1950-07-01") })
        let winter = try #require(lines.firstIndex { $0.hasPrefix("moon:1950-01-01") })
        let times = /\d\d:\d\d (\w+)/
        #expect(lines[summer + 1].matches(of: times).map { String($0.1) } == ["PDT", "PDT"], "\(lines[summer + 1])")
        #expect(lines[winter + 1].matches(of: times).map { String($0.1) } == ["PST", "PST"], "\(lines[winter + 1])")
        // The next phase after 1950-07-01 noon, dated with its year (not the current one).
        let phase = try #require(lines.last, "\(lines)")
        #expect(phase.contains(/\sJul \d+ 1950 \d\d:\d\d PDT$/), "\(phase)")
        #expect(!run.stdout.contains("GMT"))
    }

    @Test func jsonFormatIsOneArrayInTheOrderAsked() async throws {
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--format", "json", "phases:5", "pass:blewett", "moon:now"])
        #expect(run.status == 0)
        let array = try #require(try json(run.stdout) as? [[String: Any]])
        #expect(array.map { $0["urn"] as? String } == ["phases:5", "pass:blewett", "moon:now"])
        let blewett = array[1]
        #expect(blewett["route"] as? String == "pass:{name}")
        #expect(blewett["source"] as? String == "fixtures")
        #expect(blewett["fetchedAt"] as? String == "2026-11-21T14:05:00Z")
        let data = try #require(blewett["data"] as? [String: Any])
        let restrictions = try #require(data["restrictions"] as? [[String: Any]])
        // Blewett runs north-south; the directions come from the data, not an east/west assumption.
        #expect(restrictions.map { $0["direction"] as? String } == ["Northbound", "Southbound"])
        let phases = try #require((array[0]["data"] as? [String: Any])?["phases"] as? [[String: Any]])
        #expect(phases.count == 5)
    }

    @Test func ndjsonPrintsOneObjectPerLineIncludingFailures() async throws {
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--format", "ndjson", "pass:snoqualmie", "pass:snoqulamie", "pas:stevens", "moon:now"])
        #expect(run.status == 1)
        #expect(run.stderr.isEmpty)
        let lines = run.stdoutLines
        #expect(lines.count == 4)
        let objects = try lines.map { try #require(try json($0) as? [String: Any]) }
        #expect(objects.map { $0["urn"] as? String } == ["pass:snoqualmie", "pass:snoqulamie", "pas:stevens", "moon:now"])
        #expect(objects[0]["data"] != nil && objects[3]["data"] != nil)
        let typo = try #require(objects[1]["error"] as? [String: Any])
        #expect(typo["kind"] as? String == "notFound")
        #expect((typo["message"] as? String)?.contains("did you mean pass:snoqualmie?") == true)
        #expect(typo["suggestions"] as? [String] == ["pass:snoqualmie"])
        let scheme = try #require(objects[2]["error"] as? [String: Any])
        #expect(scheme["kind"] as? String == "notFound")
        #expect(scheme["suggestions"] as? [String] == ["pass:stevens"])
        // Failure objects carry no data.
        #expect(objects[1]["data"] == nil)
    }

    @Test func textModePrintsFailuresToStderrOneLineEachAndStillPrintsTheRest() async throws {
        let run = try await CLI.run(["--config", config, "--profile", "replay", "pass:white", "pass:nope", "moon:now:extra", "", "pass:satus"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("White Pass US 12  OPEN"))
        #expect(run.stdout.contains("Satus Pass US 97  OPEN"))
        #expect(run.stderrLines.count == 3)
        #expect(run.stderrLines[0].hasPrefix("conditions: pass:nope: notFound:"))
        #expect(run.stderrLines[1].hasPrefix("conditions: moon:now:extra: notFound:"))
        #expect(run.stderrLines[2] == "conditions: : invalidURN: invalid URN: the URN is empty")
    }

    @Test func recordedRoundTripReplaysTheSameData() async throws {
        // Recording with --format ndjson and replaying through Fixtures gives the same data.
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let recorded = try await CLI.run(["--config", config, "--profile", "replay", "--format", "ndjson", "pass:chinook"])
        #expect(recorded.status == 0)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Recorded/pass"), withIntermediateDirectories: true)
        try recorded.stdout.write(to: dir.appendingPathComponent("Recorded/pass/chinook.json"), atomically: true, encoding: .utf8)
        try """
        {"location": {"latitude": 47.6, "longitude": -122.3},
         "sources": {"replay": {"module": "Fixtures", "options": {"directory": "Recorded"}}},
         "routes": {"pass": "replay"}}
        """.write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        let replayed = try await CLI.run(["--format", "ndjson", "pass:chinook"], in: dir)
        #expect(replayed.status == 0)
        let a = try #require(try json(recorded.stdout) as? [String: Any])
        let b = try #require(try json(replayed.stdout) as? [String: Any])
        #expect(NSDictionary(dictionary: a["data"] as? [String: Any] ?? [:]) == NSDictionary(dictionary: b["data"] as? [String: Any] ?? [:]))
        #expect(b["source"] as? String == "replay")
        #expect((b["data"] as? [String: Any])?["status"] as? String == "closed")
    }

    @Test func traversalAttemptsAreInvalidArguments() async throws {
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--format", "ndjson", "pass:..", "pass:%2e%2e", "pass:%2Fetc%2Fpasswd", "pass:.hidden"])
        #expect(run.status == 1)
        let kinds = try run.stdoutLines.map { try #require((try json($0) as? [String: Any])?["error"] as? [String: Any])["kind"] as? String }
        #expect(kinds == ["invalidArguments", "invalidArguments", "invalidArguments", "invalidArguments"])
    }

    @Test func hostileURNsAreRejectedBeforeRouting() async throws {
        let long = "pass:" + String(repeating: "a", count: 1100)
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--format", "ndjson", long, "pass:\u{202E}evil", "pass:a\tb", "pass::x", "pass:%zz"])
        #expect(run.status == 1)
        let objects = try run.stdoutLines.map { try #require(try json($0) as? [String: Any]) }
        #expect(objects.count == 5)
        for object in objects {
            let error = try #require(object["error"] as? [String: Any])
            #expect(error["kind"] as? String == "invalidURN")
            #expect(!((error["message"] as? String) ?? "\n").contains("\n"))
        }
    }

    @Test func nowMustBeISO8601() async throws {
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--now", "yesterday", "moon:now"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--now: \"yesterday\" is not an ISO 8601"))
        #expect(run.stdout.isEmpty)
    }

    @Test func manyURNsResolveConcurrentlyInOrder() async throws {
        let slugs = ["snoqualmie", "stevens", "white", "blewett", "chinook", "cayuse", "crystal-greenwater", "mt-baker",
                     "north-cascade", "satus", "sherman", "manastash", "loup-loup", "disautel", "wauconda"]
        let urns = (0..<8).flatMap { _ in slugs.map { "pass:\($0)" } }
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--format", "ndjson"] + urns)
        #expect(run.status == 0)
        let got = try run.stdoutLines.map { try #require((try json($0) as? [String: Any])?["urn"] as? String) }
        #expect(got == urns)
    }
}
