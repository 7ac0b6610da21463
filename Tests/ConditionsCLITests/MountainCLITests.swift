import Foundation
import AvalancheStandIn
import LoopbackServer
import SnowpackStandIn
import TestHarness
import Testing

/// Before you go into the mountains (issue 33), through the built binary: the avalanche danger
/// and the snowpack together against the loopback stand-ins for avalanche.org and AWDB, in
/// every output format, and the shipped config's offline report and MCP. Each module alone is
/// in its plugin's end-to-end tests (Plugins/Avalanche/EndToEndTests, Plugins/Snowpack/EndToEndTests).
@Suite struct MountainCLITests {
    static let places = #""places": {"stevens": {"name": "Stevens Pass", "latitude": 47.745, "longitude": -121.093333}, "#
        + #""snoqualmie": {"name": "Snoqualmie Pass", "latitude": 47.41, "longitude": -121.405833}, "#
        + #""spokane": {"name": "Spokane", "latitude": 47.6588, "longitude": -117.426}}"#

    /// Both stand-ins started, and a config routing `avalanche` and `snowpack` to them.
    static func setUp() throws -> (AvalancheStandIn, AWDBStandIn, URL) {
        let avalanche = try AvalancheStandIn()
        try avalanche.start()
        let awdb = try AWDBStandIn()
        try awdb.start()
        let dir = try Upstream.config(
            sources: #""avalanche": {"module": "Avalanche", "options": {"baseURL": "\#(avalanche.baseURL.absoluteString)"}}, "#
                + #""snowpack": {"module": "Snowpack", "options": {"baseURL": "\#(awdb.baseURL.absoluteString)"}}"#,
            routes: #""avalanche": "avalanche", "snowpack": "snowpack", "moon": "astronomy""#, extra: ", " + places)
        return (avalanche, awdb, dir)
    }

    static func records(_ output: CLI.Output) throws -> [[String: Any]] {
        try output.stdoutLines.map { try Upstream.json($0) }
    }

    /// `conditions avalanche:stevens snowpack:stevens` in text and JSON.
    @Test func avalancheAndSnowpackAtStevensInTextAndJSON() async throws {
        let (avalanche, awdb, dir) = try Self.setUp()
        defer { avalanche.stop(); awdb.stop(); try? FileManager.default.removeItem(at: dir) }
        let text = try await CLI.run(["--no-cache", "--now", AWDBStandIn.now, "avalanche:stevens", "snowpack:stevens"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdoutLines
        #expect(lines.first == "avalanche:stevens  Stevens Pass (NWAC): 3 Considerable today", "\(text.stdout)")
        let snowpack = try #require(lines.firstIndex { $0.hasPrefix("snowpack:stevens") }, "\(text.stdout)")
        #expect(lines[snowpack] == "snowpack:stevens  Stevens Pass (791:WA:SNTL): depth 58 in, SWE 15.1 in")
        #expect(lines[snowpack + 1] == "  24 h     depth +8 in · SWE +1.2 in")
        #expect(lines[snowpack + 2] == "  72 h     depth +14 in · SWE unavailable", "a missing value is never read as zero")
        #expect(lines[snowpack + 3] == "  7 days   depth +18 in · SWE +3.1 in")
        #expect(lines.contains("  reading  Thu Nov 26 10:00 PST"), "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("  14 days  ") && $0.hasSuffix("Nov 13 – Nov 26, 40–58 in") }, "\(text.stdout)")
        #expect(lines.contains("  note     skipped 3 suspect SNWD values (qcFlag R, S)"), "\(text.stdout)")

        let json = try await CLI.run(["--no-cache", "--now", AWDBStandIn.now, "--format", "json", "avalanche:stevens", "snowpack:stevens"], in: dir)
        #expect(json.status == 0, "\(json.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["urn"] as? String } == ["avalanche:stevens", "snowpack:stevens"])
        #expect(array.map { $0["source"] as? String } == ["avalanche", "snowpack"])
        let data = try #require(array[1]["data"] as? [String: Any])
        #expect((data["station"] as? [String: Any])?["triplet"] as? String == "791:WA:SNTL")
        #expect(data["status"] as? String == "current")
        // One station list, one data request for the station; the avalanche side as before.
        #expect(awdb.stationRequests.count == 2, "one per run (--no-cache)")
        #expect(awdb.dataRequests(triplet: "791:WA:SNTL").count == 2)
        #expect(avalanche.mapLayerRequests.count == 2)
    }

    /// CSV flattens both kinds; a template reads their members.
    @Test func csvAndATemplate() async throws {
        let (avalanche, awdb, dir) = try Self.setUp()
        defer { avalanche.stop(); awdb.stop(); try? FileManager.default.removeItem(at: dir) }
        let csv = try await CLI.run(["--no-cache", "--now", AWDBStandIn.now, "--format", "csv", "avalanche:snoqualmie", "snowpack:snoqualmie"], in: dir)
        #expect(csv.status == 0, "\(csv.stderr)")
        // RFC 4180 records end in CRLF (one Character in Swift, so split on the string).
        let records = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let header = try #require(records.first).split(separator: ",").map(String.init)
        #expect(header.contains("data.danger.today.above.name"))
        #expect(header.contains("data.station.triplet"))
        #expect(records.count == 3, "\(csv.stdout)")
        #expect(records.last?.hasPrefix("snowpack:snoqualmie,true,") == true)
        #expect(records.last?.contains(",672:WA:SNTL,") == true, "Olallie Meadows is the nearest station to Snoqualmie Pass")

        let template = dir.appendingPathComponent("mountain.mustache")
        try "{{#results}}{{urn}}: {{#data.rating}}{{name}}{{/data.rating}}{{data.depthIn}}\n{{/results}}"
            .write(to: template, atomically: true, encoding: .utf8)
        let rendered = try await CLI.run(["--no-cache", "--now", AWDBStandIn.now, "--template", template.path, "avalanche:snoqualmie", "snowpack:snoqualmie"], in: dir)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(rendered.stdoutLines.first == "avalanche:snoqualmie: Moderate", "\(rendered.stdout)")
        #expect(rendered.stdoutLines.last == "snowpack:snoqualmie: 61", "\(rendered.stdout)")
    }

    /// The shipped config's offline profile: each pass with its road, forecast, avalanche
    /// danger and snow depth, from `Fixtures/`, no network; MCP lists and answers both kinds.
    @Test func theOfflineReportAndMCP() async throws {
        let config = CLI.packageRoot.appendingPathComponent("sources.json").path
        let run = try await CLI.run(["--config", config, "--profile", "offline", "--no-cache", "--format", "ndjson", "avalanche:stevens", "snowpack:stevens"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.records(run).map { $0["source"] as? String } == ["fixtures", "fixtures"])
        let text = try await CLI.run(["--config", config, "--profile", "offline", "--no-cache", "avalanche:snoqualmie", "snowpack:snoqualmie"])
        #expect(text.stdoutLines.first == "avalanche:snoqualmie  Snoqualmie Pass (NWAC): 2 Moderate today", "\(text.stdout)")
        #expect(text.stdoutLines.contains("snowpack:snoqualmie  Olallie Meadows (672:WA:SNTL): depth 61 in, SWE 17.4 in"), "\(text.stdout)")

        let mcp = try await MCPSession.run(
            ["mcp", "--config", "sources.json", "--profile", "offline", "--no-cache"],
            first: [#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#],
            then: [#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"routes","arguments":{}}}"#,
                   #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"resolve","arguments":{"urns":["avalanche:stevens","snowpack:stevens"]}}}"#],
            afterReplyTo: 1, in: CLI.packageRoot, timeout: 60)
        #expect(mcp.status == 0, "\(mcp.stderr)")
        let (replies, _) = try MCPServerTests.replies(mcp)
        let routes = try #require((replies[2]?["result"] as? [String: Any])?["content"] as? [[String: Any]]).compactMap { $0["text"] as? String }.joined()
        #expect(routes.contains("avalanche:{name}") && routes.contains("snowpack:{name}"), "\(routes)")
        let result = try #require(replies[3]?["result"] as? [String: Any])
        let results = try #require((result["structuredContent"] as? [String: Any])?["results"] as? [[String: Any]])
        #expect(results.map { $0["urn"] as? String } == ["avalanche:stevens", "snowpack:stevens"])
        #expect(((results[0]["data"] as? [String: Any])?["problems"] as? [Any])?.count == 2)
        #expect((results[1]["data"] as? [String: Any])?["depthIn"] as? Double == 58)
    }
}
