import Foundation
import LoopbackServer
import TestHarness
import Testing

/// `resolve` reads and writes the result cache as reports do: an assistant asking again
/// within a source's TTL costs no upstream request, across server processes too.
@Suite struct MCPCacheTests {
    static let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"cache","version":"1"}}}"#

    static func resolve(_ id: Int, _ urns: [String]) -> String {
        let list = urns.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"resolve","arguments":{"urns":[\#(list)]}}}"#
    }

    /// The `structuredContent.results` of reply `id`.
    static func results(_ run: CLI.Output, _ id: Int) throws -> [[String: Any]] {
        let (replies, _) = try MCPServerTests.replies(run)
        let result = try #require(replies[id]?["result"] as? [String: Any], "no result for \(id): \(replies[id] ?? [:])")
        return try #require((result["structuredContent"] as? [String: Any])?["results"] as? [[String: Any]])
    }

    /// Initializes, then sends each call once the previous one has answered (ids from 2).
    static func session(_ arguments: [String], in dir: URL, calls: [[String]]) async throws -> CLI.Output {
        try await MCPSession.converse(["mcp"] + arguments, in: dir, timeout: 60) { session in
            try await session.send([initialize])
            await session.waitForReply(to: 1)
            for (offset, urns) in calls.enumerated() {
                try await session.send([resolve(2 + offset, urns)])
                await session.waitForReply(to: 2 + offset)
            }
        }
    }

    @Test func repeatedCallsWithinTheTTLFetchOnce() async throws {
        let server = LoopbackServer()
        try Upstream.servePassPages(on: server)
        try server.start()
        defer { server.stop() }
        let dir = try Upstream.config(sources: #""wsdot": {"module": "WSDOT", "options": {"baseURL": "\#(server.url("/passes").absoluteString)"}}"#,
                                      routes: #""pass": "wsdot", "moon": "astronomy""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache").path

        // The second call comes after the first has answered: the stored result, no request.
        let run = try await Self.session(["--cache-dir", cache], in: dir, calls: [["pass:snoqualmie"], ["pass:snoqualmie", "moon:now"]])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.requestCount("/passes/snoqualmie") == 1)
        let first = try Self.results(run, 2), second = try Self.results(run, 3)
        #expect((first.first?["data"] as? [String: Any])?["id"] as? String == "snoqualmie")
        #expect(second.first?["fetchedAt"] as? String == first.first?["fetchedAt"] as? String)
        #expect(second.last?["urn"] as? String == "moon:now" && second.last?["data"] != nil)

        // A new server process on the same cache: still none.
        let again = try await Self.session(["--cache-dir", cache], in: dir, calls: [["pass:snoqualmie"]])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.results(again, 2).first?["fetchedAt"] as? String == first.first?["fetchedAt"] as? String)
        #expect(server.requestCount("/passes/snoqualmie") == 1)

        // --offline answers from the cache only: the cached pass, and an error naming the cache for the other.
        let offline = try await Self.session(["--cache-dir", cache, "--offline"], in: dir, calls: [["pass:snoqualmie", "pass:stevens"]])
        #expect(offline.status == 0, "\(offline.stderr)")
        let answers = try Self.results(offline, 2)
        #expect(answers.first?["data"] != nil)
        let missing = try #require(answers.last?["error"] as? [String: Any])
        #expect(missing["kind"] as? String == "notFound")
        #expect((missing["message"] as? String)?.contains("not in the cache") == true)
        #expect(server.stats.totalRequests == 1)

        // --no-cache: every call fetches.
        let uncached = try await Self.session(["--no-cache"], in: dir, calls: [["pass:snoqualmie"], ["pass:snoqualmie"]])
        #expect(uncached.status == 0, "\(uncached.stderr)")
        #expect(server.requestCount("/passes/snoqualmie") == 3)
    }

    @Test func contradictoryCacheFlagsAreAUsageError() async throws {
        let run = try await CLI.run(["mcp", "--config", "sources.json", "--offline", "--no-cache"], stdin: "")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("--offline cannot be combined with --refresh or --no-cache"), "\(run.stderr)")
    }
}
