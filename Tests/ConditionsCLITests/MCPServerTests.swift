import Foundation
import TestHarness
import Testing

/// `conditions mcp` driven over stdio: by the official Python client (`Tests/MCP/client.py`,
/// the `mcp` package pinned in `scripts/dev`) and by raw JSON-RPC lines a hostile client sends.
@Suite struct MCPServerTests {
    static let venvPython = CLI.packageRoot.appendingPathComponent(".build/mcp-venv/bin/python")
    static let clientScript = CLI.packageRoot.appendingPathComponent("Tests/MCP/client.py")

    @Test func officialPythonClient() async throws {
        // Never skipped: CI runs `scripts/dev test`, which creates the venv first.
        guard FileManager.default.isExecutableFile(atPath: Self.venvPython.path) else {
            Issue.record("No MCP client at .build/mcp-venv: run scripts/dev (or scripts/dev test) to create it")
            return
        }
        let run = try await CLI.runProgram(
            Self.venvPython, [Self.clientScript.path, CLI.binary.path, "sources.json", "offline"],
            in: CLI.packageRoot, environment: ["PATH": "/usr/bin:/bin", "HOME": CLI.home.path, "TZ": "UTC"],
            timeout: 120)
        try #require(run.status == 0, "client.py failed:\n\(run.stderr.suffix(4000))")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])

        let server = try #require(summary["server"] as? [String: Any])
        #expect(server["name"] as? String == "conditions")
        #expect(server["protocolVersion"] as? String == "2025-11-25")

        let tools = try #require(summary["tools"] as? [String: [String: Any]])
        #expect(Set(tools.keys) == ["resolve", "routes", "sources", "history"])
        let resolveSchema = try #require(tools["resolve"]?["inputSchema"] as? [String: Any])
        #expect(resolveSchema["required"] as? [String] == ["urns"])
        let urnsSchema = try #require((resolveSchema["properties"] as? [String: Any])?["urns"] as? [String: Any])
        #expect(urnsSchema["maxItems"] as? Int == 100)
        // Its examples are URNs this configuration answers: its report list, one per scheme.
        #expect((tools["resolve"]?["description"] as? String)?.contains(#"e.g. ["pass:snoqualmie", "forecast:snoqualmie", "avalanche:snoqualmie"]"#) == true,
                "\(tools["resolve"]?["description"] ?? "")")

        // Three answers and one failure, in the order asked, as text and as structured JSON.
        let resolve = try #require(summary["resolve"] as? [String: Any])
        #expect(resolve["isError"] as? Bool == false)
        let texts = try #require(resolve["texts"] as? [String])
        try #require(texts.count == 5, "\(texts)")
        #expect(texts[0].contains("Snoqualmie"))
        #expect(texts[1].lowercased().contains("moon"))
        #expect(texts[3].hasPrefix("pass:snoqualmy: notFound: ") && texts[3].contains("try: pass:snoqualmie"))
        let results = try #require((resolve["structured"] as? [String: Any])?["results"] as? [[String: Any]])
        #expect(results.map { $0["urn"] as? String } == ["pass:snoqualmie", "moon:now", "phases:3", "pass:snoqualmy"])
        #expect(results[0]["source"] as? String == "fixtures")
        #expect(results[2]["data"] != nil)
        let failure = try #require(results[3]["error"] as? [String: Any])
        #expect(failure["kind"] as? String == "notFound")
        #expect((failure["message"] as? String)?.contains("did you mean pass:snoqualmie?") == true)
        #expect(failure["suggestions"] as? [String] == ["pass:snoqualmie"])
        #expect(texts[4].contains("\"urn\": \"pass:snoqualmy\""))

        let routes = try #require((summary["routes"] as? [String: Any])?["structured"] as? [String: Any])
        let routeRows = try #require(routes["routes"] as? [[String: Any]])
        let pass = try #require(routeRows.first { ($0["pattern"] as? String)?.hasPrefix("pass:") == true })
        #expect(pass["source"] as? String == "fixtures")
        #expect((pass["examples"] as? [String])?.contains("pass:snoqualmie") == true)

        let sources = try #require((summary["sources"] as? [String: Any])?["structured"] as? [String: Any])
        #expect((sources["instances"] as? [[String: Any]])?.contains { $0["id"] as? String == "fixtures" } == true)
        #expect((sources["modules"] as? [[String: Any]])?.contains { $0["module"] as? String == "WSDOT" } == true)

        let resources = try #require(summary["resources"] as? [String])
        #expect(resources.first == "conditions://report")
        #expect(resources.contains("conditions://urn/pass:snoqualmie"))
        let report = try #require(summary["report"] as? [[String: Any]])
        #expect(report.first?["mimeType"] as? String == "text/plain")
        #expect((report.first?["text"] as? String)?.contains("Snoqualmie") == true)
        #expect((report.last?["text"] as? String)?.contains("\"urn\"") == true)
        let example = try #require(summary["example"] as? [String: Any])
        #expect((example["text"] as? String)?.lowercased().contains("moon") == true)
        #expect(((summary["unknownResource"] as? [String: Any])?["message"] as? String)?.contains("Unknown resource") == true)

        // Malformed calls: tool errors saying what is wrong, or a protocol error for an unknown tool.
        let malformed = try #require(summary["malformed"] as? [String: [String: Any]])
        func toolError(_ key: String) -> String? {
            guard malformed[key]?["isError"] as? Bool == true else { return nil }
            return (malformed[key]?["texts"] as? [String])?.first
        }
        #expect(toolError("stringNotArray")?.contains("must be an array of strings, not a string") == true)
        #expect(toolError("numbers")?.contains("urns[0] must be a string, not a number") == true)
        #expect(toolError("missing")?.contains("missing \"urns\"") == true)
        #expect(toolError("empty")?.contains("empty") == true)
        #expect(toolError("tooMany")?.contains("10000 URNs; at most 100") == true)
        #expect(toolError("hugeURN")?.contains("1000005 bytes; a URN is at most 4096") == true)
        #expect(toolError("extraArgument")?.contains("routes takes no arguments") == true)
        let unknown = try #require(malformed["unknownTool"]?["protocolError"] as? [String: Any])
        #expect(unknown["code"] as? Int == -32602)
        #expect((unknown["message"] as? String)?.contains("Unknown tool \"weather\"") == true)

        let after = try #require(summary["after"] as? [String: Any])
        #expect(after["isError"] as? Bool == false)
    }

    /// Requests before `initialize` are refused with a clear protocol error, garbage lines get
    /// parse errors, and the server exits when its input closes. (A separate run from the one
    /// below: the SDK handles requests concurrently, so an `initialize` in the same input could
    /// overtake them.)
    @Test func callsBeforeInitialize() async throws {
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"resolve","arguments":{"urns":["moon:now"]}}}"#,
            "this is not json",
            #"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"conditions://report"}}"#,
            "\u{1}\u{2}[[[",
        ]
        let run = try await CLI.run(["mcp", "--config", "sources.json", "--profile", "offline"], stdin: lines.joined(separator: "\n") + "\n", timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let (replies, anonymous) = try Self.replies(run)
        for id in 1...3 {
            let error = replies[id]?["error"] as? [String: Any]
            #expect(error?["code"] as? Int == -32600, "\(replies[id] ?? [:])")
            #expect((error?["message"] as? String)?.contains("not initialized: send \"initialize\" first") == true)
        }
        #expect(anonymous.filter { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }.count == 2, "\(anonymous)")
    }

    /// Wrong types where the SDK would decode, unknown methods, garbage: each request gets an
    /// error naming what is wrong, stdout holds only protocol lines, answers still come.
    @Test func rawHostileClient() async throws {
        let lines = [
            #"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ]
        let requests = [
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"resolve","arguments":{"urns":{"a":1}}}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"no/such/method"}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"resolve","arguments":{"urns":["moon:now","phases:2"]}}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"conditions://urn/moon:now"}}"#,
            #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":"resolve"}"#,
            #"{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":7}}"#,
            "",
            "\u{1}\u{2}[[[",
        ]
        // The initialize reply must come before the rest is read: the session below sends the
        // rest only once it has seen it, so ordering is the protocol's, not the scheduler's.
        let run = try await MCPSession.run(["mcp", "--config", "sources.json", "--profile", "offline"],
                                           first: lines, then: requests, afterReplyTo: 2, timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let (replies, anonymous) = try Self.replies(run)
        func error(_ id: Int) -> (code: Int, message: String)? {
            guard let error = replies[id]?["error"] as? [String: Any] else { return nil }
            return (error["code"] as? Int ?? 0, error["message"] as? String ?? "")
        }
        #expect((replies[2]?["result"] as? [String: Any])?["serverInfo"] != nil)
        #expect(error(3)?.code == -32602)
        #expect(error(3)?.message.contains("\"name\" must be a string") == true)
        let wrongType = replies[4]?["result"] as? [String: Any]
        #expect(wrongType?["isError"] as? Bool == true)
        #expect(((wrongType?["content"] as? [[String: Any]])?.first?["text"] as? String)?.contains("must be an array of strings, not an object") == true)
        #expect(error(5)?.code == -32601)
        #expect(error(5)?.message.contains("no/such/method") == true)
        let resolved = try #require(replies[6]?["result"] as? [String: Any])
        #expect(((resolved["structuredContent"] as? [String: Any])?["results"] as? [Any])?.count == 2)
        #expect(((replies[7]?["result"] as? [String: Any])?["contents"] as? [Any])?.count == 2)
        #expect(error(8)?.message.contains("not a string") == true)
        #expect(error(9)?.message.contains("takes {\"uri\": string}") == true)
        #expect(anonymous.filter { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }.count == 1, "\(anonymous)")
    }

    /// A secret from the environment appears neither in the protocol stream nor in the most
    /// verbose log, even when the source fails on the request that carries it.
    @Test func secretsMasked() async throws {
        let secret = "s3cr3t-access-code-4711"
        let run = try await MCPSession.run(
            ["mcp", "--config", "sources.json", "--profile", "api", "-vvv"],
            first: [#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#],
            then: [
                #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sources"}}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"routes"}}"#,
                // No network here: the request fails, and its error and logs mention the URL.
                #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"resolve","arguments":{"urns":["pass:snoqualmie"]}}}"#,
            ],
            afterReplyTo: 1, environment: ["WSDOT_ACCESS_CODE": secret], timeout: 60)
        #expect(run.status == 0)
        let (replies, _) = try Self.replies(run)
        #expect(Set(replies.keys) == [1, 2, 3, 4])
        #expect(!run.stdout.contains(secret))
        #expect(!run.stderr.contains(secret))
    }

    /// A line over the 16 MiB limit is skipped with an error instead of being held in memory,
    /// and the next line is still read.
    @Test func overlongLineIsSkipped() async throws {
        let huge = #"{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"x":""# + String(repeating: "x", count: 17 << 20) + #""}}"#
        let next = #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#
        let run = try await CLI.run(["mcp", "--config", "sources.json", "--profile", "offline"], stdin: huge + "\n" + next + "\n", timeout: 60)
        #expect(run.status == 0)
        let (replies, anonymous) = try Self.replies(run)
        #expect(replies[9] == nil)
        #expect(((replies[1]?["error"] as? [String: Any])?["message"] as? String)?.contains("not initialized") == true)
        #expect(anonymous.contains { (($0["error"] as? [String: Any])?["message"] as? String)?.contains("message longer than 16 MiB, skipped") == true }, "\(anonymous)")
        #expect(run.stderr.contains("longer than 16 MiB was skipped"))
    }

    /// Each example in `conditions mcp --help` runs: it starts, serves an empty input, exits 0.
    @Test func helpExamplesRun() async throws {
        let help = try await CLI.run(["mcp", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--no-cache") && help.stdout.contains("--cache-dir"))
        let examples = help.stdoutLines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("conditions mcp") }
        try #require(examples.count == 3, "\(help.stdout)")
        for example in examples {
            let arguments = example.split(separator: " ").dropFirst().map(String.init)
            let run = try await CLI.run(arguments, stdin: "")
            #expect(run.status == 0, "\(example): \(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
    }

    /// Every stdout line parsed: replies by numeric id, the rest (parse errors) apart.
    static func replies(_ run: CLI.Output) throws -> ([Int: [String: Any]], [[String: Any]]) {
        var replies: [Int: [String: Any]] = [:]
        var anonymous: [[String: Any]] = []
        for line in run.stdoutLines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a protocol line: \(line.prefix(200))")
            if let id = object["id"] as? Int { replies[id] = object } else { anonymous.append(object) }
        }
        return (replies, anonymous)
    }
}
