import Foundation
import LoopbackServer
import TestHarness
import Testing

/// A client flooding the server: a bounded number of calls resolve, a bounded number wait,
/// the rest are refused at once with a clear error, cheap requests are still answered, and
/// the server goes on serving.
@Suite struct MCPLimitsTests {
    static let running = 8, waiting = 64

    static func request(_ id: Int, _ method: String, _ params: String = "{}") -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    @Test func aFloodOfResolveCallsIsAnsweredOrRefusedAndTheServerStaysResponsive() async throws {
        // The upstream holds every request until the gate opens: until then no call finishes,
        // so exactly `running + waiting` calls are admitted whatever the scheduling.
        let gate = Gate()
        let page = try Upstream.text("Plugins/WSDOT/Tests/Resources/snoqualmie-winter.html")
        let server = LoopbackServer()
        server.route("/passes/snoqualmie") { _ in
            gate.wait()
            return .text(page, contentType: "text/html; charset=utf-8")
        }
        try server.start()
        defer {
            gate.open()
            server.stop()
        }
        let dir = try Upstream.config(sources: #""wsdot": {"module": "WSDOT", "options": {"baseURL": "\#(server.url("/passes").absoluteString)"}}"#,
                                      routes: #""pass": "wsdot", "moon": "astronomy""#)
        defer { try? FileManager.default.removeItem(at: dir) }

        let calls = 150, first = 100
        let refusedCount = calls - Self.running - Self.waiting
        let resolve = #"{"name":"resolve","arguments":{"urns":["pass:snoqualmie"]}}"#
        let run = try await MCPSession.converse(["mcp", "--no-cache"], in: dir, timeout: 120) { session in
            try await session.send([MCPCacheTests.initialize])
            await session.waitForReply(to: 1)
            try await session.send((first..<first + calls).map { Self.request($0, "tools/call", resolve) }
                                   + [Self.request(2, "tools/call", #"{"name":"routes"}"#), Self.request(3, "tools/list")])
            await session.wait { replies in
                replies[2] != nil && replies[3] != nil
                    && replies.filter { $0.key >= first && $0.value.contains("Server busy") }.count >= refusedCount
            }
            // The queue is full: a resource read is refused too.
            try await session.send([Self.request(4, "resources/read", #"{"uri":"conditions://urn/pass:snoqualmie"}"#)])
            await session.waitForReply(to: 4)
            gate.open()
            await session.waitForReplies(to: Set(first..<first + calls))
            // Afterwards the server serves as before.
            try await session.send([Self.request(5, "tools/call", #"{"name":"resolve","arguments":{"urns":["pass:snoqualmie","moon:now"]}}"#)])
            await session.waitForReply(to: 5)
        }
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")

        let ids = run.stdoutLines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? Int }
        #expect(ids.count == Set(ids).count, "a request was answered twice")
        let (replies, _) = try MCPServerTests.replies(run)
        var answered = 0, refused = 0
        for id in first..<first + calls {
            let result = try #require(replies[id]?["result"] as? [String: Any], "no answer to \(id): \(replies[id] ?? [:])")
            let text = ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
            if result["isError"] as? Bool == true {
                #expect(text.contains("Server busy: 8 calls are resolving and 64 more are waiting"), "\(text)")
                refused += 1
            } else {
                let results = (result["structuredContent"] as? [String: Any])?["results"] as? [[String: Any]]
                #expect((results?.first?["data"] as? [String: Any])?["id"] as? String == "snoqualmie", "\(text.prefix(300))")
                answered += 1
            }
        }
        #expect(answered == Self.running + Self.waiting)
        #expect(refused == refusedCount)
        #expect(((replies[2]?["result"] as? [String: Any])?["structuredContent"] as? [String: Any])?["routes"] != nil)
        #expect(((replies[3]?["result"] as? [String: Any])?["tools"] as? [Any])?.count == 4)
        let busy = try #require(replies[4]?["error"] as? [String: Any])
        #expect(busy["code"] as? Int == -32000)
        #expect((busy["message"] as? String)?.contains("Server busy") == true)
        let after = try #require((replies[5]?["result"] as? [String: Any])?["structuredContent"] as? [String: Any])
        #expect((after["results"] as? [[String: Any]])?.count == 2)
        // One request per admitted call and the last one; none for a refused call.
        #expect(server.requestCount("/passes/snoqualmie") == Self.running + Self.waiting + 1)
    }

    @Test func aBatchIsCappedAndASmallOneAnswered() async throws {
        let list = (0..<40).map { Self.request(10 + $0, "tools/list") }.joined(separator: ",")
        let pair = [Self.request(60, "tools/list"), Self.request(61, "tools/call", #"{"name":"routes"}"#)].joined(separator: ",")
        let run = try await MCPSession.run(["mcp", "--config", "sources.json", "--profile", "offline"],
                                           first: [MCPCacheTests.initialize], then: ["[\(list)]", "[\(pair)]", Self.request(2, "tools/list")],
                                           afterReplyTo: 1, timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        var refusal: [String: Any]?
        var batchReply: [[String: Any]]?
        var replies: [Int: [String: Any]] = [:]
        for line in run.stdoutLines {
            let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
            if let array = value as? [[String: Any]] { batchReply = array }
            guard let object = value as? [String: Any] else { continue }
            if object["id"] is NSNull { refusal = object["error"] as? [String: Any] }
            if let id = object["id"] as? Int { replies[id] = object }
        }
        #expect(refusal?["code"] as? Int == -32600)
        #expect((refusal?["message"] as? String)?.contains("a batch holds at most 32 messages, this one 40") == true)
        #expect(Set(batchReply?.compactMap { $0["id"] as? Int } ?? []) == [60, 61])
        #expect(replies[2]?["result"] != nil)
        #expect(replies.keys.allSatisfy { !(10..<50).contains($0) })
    }
}

