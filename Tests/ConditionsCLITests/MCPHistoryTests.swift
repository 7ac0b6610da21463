import Foundation
import TestHarness
import Testing

/// The MCP tool `history` through the binary: what `--record` wrote, read back by a model's
/// call; bad arguments as tool errors; no store as an empty answer that creates none.
@Suite struct MCPHistoryTests {
    static func call(_ id: Int, _ arguments: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"history","arguments":\#(arguments)}}"#
    }

    static func session(in dir: URL, _ calls: [String]) async throws -> CLI.Output {
        try await MCPSession.converse(["mcp", "--config", "sources.json"], in: dir, timeout: 60) { session in
            try await session.send([MCPCacheTests.initialize])
            await session.waitForReply(to: 1)
            for (offset, arguments) in calls.enumerated() {
                try await session.send([call(2 + offset, arguments)])
                await session.waitForReply(to: 2 + offset)
            }
        }
    }

    @Test func historyAnswersWhatWasRecorded() async throws {
        let dir = try HistoryCLITests.clockConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("history.sqlite")
        // Nothing recorded yet: an empty answer, and still no store.
        let empty = try await Self.session(in: dir, [#"{"urn": "pass:stevens"}"#])
        let (emptyReplies, _) = try MCPServerTests.replies(empty)
        let emptyResult = try #require(emptyReplies[2]?["result"] as? [String: Any])
        #expect(emptyResult["isError"] as? Bool != true)
        #expect(((emptyResult["structuredContent"] as? [String: Any])?["changes"] as? [Any])?.isEmpty == true)
        #expect(!FileManager.default.fileExists(atPath: store.path), "the MCP server creates no store")

        let now = Date()
        for minutes in [90, 60, 30] {
            let at = ISO8601DateFormatter().string(from: now.addingTimeInterval(Double(-minutes * 60)))
            let out = try await CLI.run(["--config", "sources.json", "--record", "--now", at, "pass:stevens"], in: dir)
            #expect(out.status == 0, "\(out.stderr)")
        }
        let run = try await Self.session(in: dir, [#"{"urn": "pass:stevens", "since": "2h"}"#, #"{"urn": "pass:stevens", "since": "45m"}"#,
                                                   #"{"urn": "pass:stevens", "since": "last week"}"#, #"{"urn": 7}"#, #"{"urn": "pass:a", "colour": "red"}"#])
        #expect(run.status == 0, "\(run.stderr)")
        let (replies, _) = try MCPServerTests.replies(run)
        let all = try #require(replies[2]?["result"] as? [String: Any])
        let changes = try #require((all["structuredContent"] as? [String: Any])?["changes"] as? [[String: Any]])
        #expect(changes.count == 3, "\(all)")
        #expect(changes.allSatisfy { ($0["status"] as? String)?.hasPrefix("at ") == true })
        let text = ((all["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        #expect(text.hasPrefix("pass:stevens: 3 changes recorded from "), "\(text)")
        let recent = try #require(replies[3]?["result"] as? [String: Any])
        #expect(((recent["structuredContent"] as? [String: Any])?["changes"] as? [Any])?.count == 1)
        for id in 4...6 {
            let refused = try #require(replies[id]?["result"] as? [String: Any], "\(replies[id] ?? [:])")
            #expect(refused["isError"] as? Bool == true)
            let message = ((refused["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
            #expect(message.hasPrefix("Invalid arguments: "), "\(message)")
        }
    }
}
