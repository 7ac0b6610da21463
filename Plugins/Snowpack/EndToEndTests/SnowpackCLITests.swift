import ConditionsKit
import ConditionsKitTesting
import Foundation
import LoopbackServer
import SnowpackStandIn
import TestHarness
import Testing

/// The Snowpack module through the built binary (issue 33), against the loopback stand-in for
/// NRCS AWDB: text, JSON, CSV and a template, its failures one line each, and `watch` quiet
/// over unchanged readings.
@Suite struct SnowpackCLITests {
    static let places = #""places": {\#(Place.stevensConfig), "#
        + #""snoqualmie": {"name": "Snoqualmie Pass", "latitude": 47.41, "longitude": -121.405833}, "#
        + #""spokane": {"name": "Spokane", "latitude": 47.6588, "longitude": -117.426}}"#

    /// A started stand-in and a config whose `snowpack` instance reads it.
    static func setUp() throws -> (AWDBStandIn, URL) {
        let awdb = try AWDBStandIn()
        try awdb.start()
        let dir = try Upstream.config(
            sources: #""snowpack": {"module": "Snowpack", "options": {"baseURL": "\#(awdb.baseURL.absoluteString)"}}"#,
            routes: #""snowpack": "snowpack", "moon": "astronomy""#, extra: ", " + places)
        return (awdb, dir)
    }

    static func records(_ output: CLI.Output) throws -> [[String: Any]] {
        try output.stdoutLines.map { try Upstream.json($0) }
    }

    /// `conditions snowpack:stevens` in text and JSON: one station list and one data request a run.
    @Test func stevensInTextAndJSON() async throws {
        let (awdb, dir) = try Self.setUp()
        defer { awdb.stop(); try? FileManager.default.removeItem(at: dir) }
        let text = try await CLI.run(["--no-cache", "--now", AWDBStandIn.now, "snowpack:stevens"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdoutLines
        try #require(lines.count >= 4, "\(text.stdout)")
        #expect(lines[0] == "snowpack:stevens  Stevens Pass (791:WA:SNTL): depth 58 in, SWE 15.1 in")
        #expect(lines[1] == "  24 h     depth +8 in · SWE +1.2 in")
        #expect(lines[2] == "  72 h     depth +14 in · SWE unavailable", "a missing value is never read as zero")
        #expect(lines[3] == "  7 days   depth +18 in · SWE +3.1 in")
        #expect(lines.contains("  reading  Thu Nov 26 10:00 PST"), "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("  14 days  ") && $0.hasSuffix("Nov 13 – Nov 26, 40–58 in") }, "\(text.stdout)")
        #expect(lines.contains("  note     skipped 3 suspect SNWD values (qcFlag R, S)"), "\(text.stdout)")

        let json = try await CLI.run(["--no-cache", "--now", AWDBStandIn.now, "--format", "json", "snowpack:stevens"], in: dir)
        #expect(json.status == 0, "\(json.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["urn"] as? String } == ["snowpack:stevens"])
        #expect(array.first?["source"] as? String == "snowpack")
        let data = try #require(array.first?["data"] as? [String: Any])
        #expect((data["station"] as? [String: Any])?["triplet"] as? String == "791:WA:SNTL")
        #expect(data["status"] as? String == "current")
        #expect(awdb.stationRequests.count == 2, "one per run (--no-cache)")
        #expect(awdb.dataRequests(triplet: "791:WA:SNTL").count == 2)
    }

    /// CSV flattens the reading; a template reads its members.
    @Test func csvAndATemplate() async throws {
        let (awdb, dir) = try Self.setUp()
        defer { awdb.stop(); try? FileManager.default.removeItem(at: dir) }
        let csv = try await CLI.run(["--no-cache", "--now", AWDBStandIn.now, "--format", "csv", "snowpack:snoqualmie"], in: dir)
        #expect(csv.status == 0, "\(csv.stderr)")
        // RFC 4180 records end in CRLF (one Character in Swift, so split on the string).
        let records = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let header = try #require(records.first).split(separator: ",").map(String.init)
        #expect(header.contains("data.station.triplet"))
        #expect(records.count == 2, "\(csv.stdout)")
        #expect(records.last?.hasPrefix("snowpack:snoqualmie,true,") == true)
        #expect(records.last?.contains(",672:WA:SNTL,") == true, "Olallie Meadows is the nearest station to Snoqualmie Pass")

        let template = dir.appendingPathComponent("depth.mustache")
        try "{{#results}}{{urn}}: {{data.depthIn}}\n{{/results}}".write(to: template, atomically: true, encoding: .utf8)
        let rendered = try await CLI.run(["--no-cache", "--now", AWDBStandIn.now, "--template", template.path, "snowpack:snoqualmie"], in: dir)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(rendered.stdoutLines == ["snowpack:snoqualmie: 61"], "\(rendered.stdout)")
    }

    /// The snowpack's failures through the binary: a station AWDB does not know, a place far
    /// from every station, a bad triplet, and an HTML page with HTTP 200: one line each.
    @Test func snowpackErrorsAreOneLineEach() async throws {
        let (awdb, dir) = try Self.setUp()
        defer { awdb.stop(); try? FileManager.default.removeItem(at: dir) }
        let unknown = try await CLI.run(["--no-cache", "snowpack:station:1234:WA:SNTL"], in: dir)
        #expect(unknown.status == 1)
        #expect(unknown.stderrLines.count == 1)
        #expect(unknown.stderrLines.first?.hasPrefix("conditions: snowpack:station:1234:WA:SNTL: notFound: ") == true, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("1234:WA:SNTL"))

        let far = try await CLI.run(["--no-cache", "snowpack:spokane"], in: dir)
        #expect(far.status == 1)
        #expect(far.stderrLines.first?.hasPrefix("conditions: snowpack:spokane: notFound: ") == true, "\(far.stderr)")

        let bad = try await CLI.run(["--no-cache", "snowpack:station:79x:WA:SNTL"], in: dir)
        #expect(bad.status != 0)
        #expect(bad.stderrLines.first?.contains("invalidArguments") == true, "\(bad.stderr)")
        #expect(awdb.dataRequests(triplet: "79x:WA:SNTL").isEmpty, "checked before any request")

        awdb.answerWithHTML()
        let html = try await CLI.run(["--no-cache", "snowpack:stevens", "moon:now"], in: dir)
        #expect(html.status == 1)
        #expect(html.stderrLines.count == 1)
        #expect(html.stderrLines.first?.hasPrefix("conditions: snowpack:stevens: badResponse: ") == true, "\(html.stderr)")
        #expect(html.stdoutLines.contains { $0.hasPrefix("moon:now") })
    }

    /// `watch` over a snowpack: the same readings polled again are not a change.
    @Test func watchIsQuietOverUnchangedReadings() async throws {
        let (awdb, dir) = try Self.setUp()
        defer { awdb.stop(); try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["watch", "--no-cache", "--every", "1s", "--count", "3", "--format", "ndjson", "snowpack:stevens"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.records(run).map { $0["event"] as? String } == ["initial"], "\(run.stdout)")
        #expect(awdb.dataRequests().count == 3, "three polls, each asked")
    }
}
