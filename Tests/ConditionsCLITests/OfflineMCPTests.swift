import Foundation
import TestHarness
import Testing

/// The shipped config's offline profile (the recordings in `Fixtures/`) through the CLI and
/// `conditions mcp`: what its tools return for the registered modules' kinds, read through
/// their presentations (issue 33's mountain report: avalanche danger and snowpack together).
@Suite struct OfflineMCPTests {
    /// `conditions mcp`: the results as its tools return every result, text read through the
    /// forecast's presentation (the alert first).
    @Test func theMCPServerAnswersForecastsAndAlerts() async throws {
        let run = try await MCPSession.run(
            ["mcp", "--config", "sources.json", "--profile", "offline", "--no-cache"],
            first: [#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#],
            then: [#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"resolve","arguments":{"urns":["forecast:stevens","alerts:snoqualmie"]}}}"#],
            afterReplyTo: 1, in: CLI.packageRoot, timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let (replies, _) = try MCPServerTests.replies(run)
        let result = try #require(replies[2]?["result"] as? [String: Any])
        let results = try #require((result["structuredContent"] as? [String: Any])?["results"] as? [[String: Any]])
        #expect(results.map { $0["urn"] as? String } == ["forecast:stevens", "alerts:snoqualmie"])
        #expect(((results[0]["data"] as? [String: Any])?["periods"] as? [Any])?.count == 14)
        #expect(((results[1]["data"] as? [String: Any])?["alerts"] as? [Any])?.isEmpty == true)
        let text = try #require(result["content"] as? [[String: Any]]).compactMap { $0["text"] as? String }.joined(separator: "\n")
        #expect(text.contains("⚠ Winter Weather Advisory until"), "\(text)")
        #expect(text.contains("Snoqualmie Pass: no active alerts"), "\(text)")
    }

    /// The shipped config's offline profile: each pass with its road, forecast, avalanche
    /// danger and snow depth, from `Fixtures/`, no network; MCP lists and answers both kinds.
    @Test func theOfflineReportAndMCP() async throws {
        let config = CLI.packageRoot.appendingPathComponent("sources.json").path
        let run = try await CLI.run(["--config", config, "--profile", "offline", "--no-cache", "--format", "ndjson", "avalanche:stevens", "snowpack:stevens"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.stdoutLines.map { try Upstream.json($0) }.map { $0["source"] as? String } == ["fixtures", "fixtures"])
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
