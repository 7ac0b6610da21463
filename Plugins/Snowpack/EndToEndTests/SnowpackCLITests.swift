import Foundation
import LoopbackServer
import SnowpackStandIn
import TestHarness
import Testing

/// The Snowpack module through the built binary (issue 33), against the loopback stand-in for
/// NRCS AWDB: its failures one line each, and `watch` quiet over unchanged readings.
@Suite struct SnowpackCLITests {
    static let places = #""places": {"stevens": {"name": "Stevens Pass", "latitude": 47.745, "longitude": -121.093333}, "#
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
