import Foundation
import TestHarness
import Testing

/// `conditions serve` with a notify rule (issue 43): the rule's URN is polled every `every`
/// whether or not any client is connected, each change is one notice on an ntfy stand-in, and
/// the history the server answers from holds the same changes.
@Suite struct ServeNotifyTests {
    @Test func aRulesURNIsPolledAndEachChangeNotifiedWithNoClient() async throws {
        let ntfy = NtfyStandIn(authorization: "Bearer tk_servetoken")
        try ntfy.start()
        defer { ntfy.stop() }
        let dir = try Upstream.config(
            sources: #""flip": {"module": "Exec", "options": {"command": ["/bin/sh", "flip.sh"], "routes": ["pass:{name}"], "timeout": 600}}"#,
            routes: #""pass": "flip""#,
            extra: #""#
                + #", "notify": {"targets": {"phone": {"ntfy": "\#(ntfy.topicURL("passes").absoluteString)", "token": "${NTFY_TOKEN}"}},"#
                + #" "rules": [{"urns": ["pass:flip"], "to": ["phone"], "every": "1s"}]}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            #!/bin/sh
            cat > /dev/null
            n=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > count
            if [ $((n % 2)) -eq 1 ]; then status=open; else status=closed; fi
            printf '{"data": {"status": "%s"}}\\n' "$status"
            """.write(to: dir.appendingPathComponent("flip.sh"), atomically: true, encoding: .utf8)
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir,
                                                environment: ["NTFY_TOKEN": "tk_servetoken", "XDG_STATE_HOME": dir.appendingPathComponent("state").path]) { server in
            let notified = try await FleetServeTests.eventually { ntfy.messages.count >= 2 }
            #expect(notified, "two changes, two notices: \(ntfy.messages)")
            let history = try await server.request("/v1/history/pass:flip?since=1h")
            #expect(history.status == 200, "\(history.body)")
            let changes = (try JSONSerialization.jsonObject(with: Data(history.body.utf8)) as? [String: Any])?["changes"] as? [[String: Any]] ?? []
            #expect(changes.count >= 3, "the polls were recorded: \(changes.count)")
            let metrics = try await server.request("/metrics")
            #expect(metrics.body.contains(#"conditions_notices_total{target="phone",outcome="sent"}"#), "\(metrics.body.suffix(600))")
        }
        #expect(!ended.stderr.contains("tk_servetoken"), "\(ended.stderr)")
        let titles = ntfy.messages.prefix(2).map { $0.title ?? "" }
        #expect(titles == ["pass:flip: closed", "pass:flip: open"], "\(titles)")
        #expect(ntfy.messages.allSatisfy { $0.priority == 3 && $0.topic == "passes" })
    }
}
