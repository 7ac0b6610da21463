import Foundation
import TestHarness
import Testing

/// `conditions mcp` over the shipped config's offline profile (the recordings in `Fixtures/`):
/// what its tools return for the registered modules' kinds, read through their presentations.
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
}
