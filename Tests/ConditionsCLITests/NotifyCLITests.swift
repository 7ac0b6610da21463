import Foundation
import LoopbackServer
import Synchronization
import TestHarness
import Testing

/// Notifications through the binary (issue 43), with real peers: webhooks verified by the
/// Standard Webhooks specification's own library (`standardwebhooks`, Tests/Notify), the real
/// `apprise` program sending to a loopback `json://` receiver, `conditions check` naming each
/// mistake of the `notify` section, and a notice claimed by a watch killed mid-send delivered
/// again after a restart under the same `webhook-id`.
@Suite struct NotifyCLITests {
    static let venv = CLI.packageRoot.appendingPathComponent(".build/notify-venv/bin")
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    /// A loopback receiver recording each POST; `hangFirst`: the first is never answered.
    final class Receiver: Sendable {
        let server = LoopbackServer()
        private let count = Counter()

        /// Counts the requests answered (a class, so the handler can share it).
        final class Counter: Sendable {
            private let value = Mutex(0)
            func next() -> Int { value.withLock { $0 += 1; return $0 } }
        }

        init(hangFirst: Bool = false) throws {
            let count = count
            server.fallback { _ in
                hangFirst && count.next() == 1 ? .init(status: 204, delay: 3600) : .init(status: 204)
            }
            try server.start()
        }

        var posts: [LoopbackServer.Request] { server.requests.filter { $0.method == "POST" } }
    }

    /// The signatures of `requests` checked by `standardwebhooks`: the verified payloads, or why not.
    static func verified(_ requests: [LoopbackServer.Request]) async throws -> [[String: Any]] {
        let recorded = requests.map { ["headers": $0.headers, "body": $0.body.base64EncodedString()] as [String: Any] }
        let input = String(decoding: try JSONSerialization.data(withJSONObject: recorded), as: UTF8.self)
        let run = try await CLI.runProgram(venv.appendingPathComponent("python"), [CLI.packageRoot.appendingPathComponent("Tests/Notify/verify-webhooks.py").path],
                                           in: CLI.packageRoot, environment: ["WEBHOOK_SECRET": secret], stdin: input, timeout: 60)
        try #require(run.status == 0, "verify-webhooks.py: \(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    static func notifyConfig(_ dir: URL, targets: String) throws {
        let file = dir.appendingPathComponent("sources.json")
        var text = try String(contentsOf: file, encoding: .utf8)
        text = String(text.dropLast()) + #", "notify": {"targets": {\#(targets)}}}"#
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    @Test func checkNamesEachMistakeByItsPath() async throws {
        let dir = try WatchHookTests.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sources.json")
        var text = try String(contentsOf: file, encoding: .utf8)
        text = String(text.dropLast()) + #"""
            , "notify": {"targets": {"phone": {"ntfy": "http://ntfy.example.org/passes", "token": "tk_written_here"},
                                     "hook": {"webhook": "https://example.org/hook", "secret": "${HOOK_SECRET}"}},
                         "rules": [{"urns": ["pass:flip"], "to": ["phnoe"]}, {"urns": ["pass:flip"], "to": []}]}}
            """#
        try text.write(to: file, atomically: true, encoding: .utf8)
        let check = try await CLI.run(["check"], in: dir, environment: ["HOOK_SECRET": Self.secret])
        #expect(check.status == 2)
        let lines = check.stderrLines
        #expect(lines.contains { $0.contains("notify.targets.phone.ntfy: plain http:// to ntfy.example.org") }, "\(check.stderr)")
        #expect(lines.contains { $0.contains("notify.targets.phone.token: a secret must come from the environment") })
        #expect(lines.contains { $0.contains(#"notify.rules[0].to[0]: no target "phnoe"; did you mean "phone"?"#) })
        #expect(lines.contains { $0.contains("notify.rules[1].to: name at least one target") })
        #expect(!check.stderr.contains("tk_written_here"), "a literal secret is named, never printed")

        // Loaded, a secret that is no Standard Webhooks secret, and a variable not set.
        let dir2 = try WatchHookTests.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir2) }
        try Self.notifyConfig(dir2, targets: #""hook": {"webhook": "https://example.org/hook", "secret": "${HOOK_SECRET}"}, "more": {"apprise": ["${APPRISE_URL}"]}"#)
        let secret = try await CLI.run(["check"], in: dir2, environment: ["HOOK_SECRET": "s3cr3t-not-whsec"])
        #expect(secret.status == 2)
        #expect(secret.stderr.contains("notify.targets.hook.secret: not a Standard Webhooks secret"), "\(secret.stderr)")
        #expect(secret.stderr.contains("notify.targets.more.apprise[0]: environment variable APPRISE_URL is not set"), "\(secret.stderr)")
        #expect(!secret.stderr.contains("s3cr3t-not-whsec"))
        let fine = try await CLI.run(["check"], in: dir2, environment: ["HOOK_SECRET": Self.secret, "APPRISE_URL": "json://127.0.0.1:9/x"])
        #expect(fine.status == 0 && fine.stdout.contains("2 notify targets and 0 rules"), "\(fine.stdout) \(fine.stderr)")
    }

    /// `notify test` and `watch --notify` to a webhook (verified by `standardwebhooks`) and to
    /// the real `apprise` sending JSON to loopback: one notice per change, each webhook signed
    /// with its own `webhook-id`, no secret in any output.
    @Test func webhooksAndAppriseThroughTheRealPeers() async throws {
        let hook = try Receiver(), apprise = try Receiver()
        defer { hook.server.stop(); apprise.server.stop() }
        let dir = try WatchHookTests.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.notifyConfig(dir, targets: #""hook": {"webhook": "\#(hook.server.url("/hook").absoluteString)", "secret": "${HOOK_SECRET}"}, "more": {"apprise": ["${APPRISE_URL}"]}"#)
        let environment = ["HOOK_SECRET": Self.secret, "APPRISE_URL": "json://127.0.0.1:\(apprise.server.port)/apprise",
                           "PATH": "\(Self.venv.path):/usr/bin:/bin", "XDG_STATE_HOME": dir.appendingPathComponent("state").path]

        let test = try await CLI.run(["notify", "test", "hook"], in: dir, environment: environment)
        #expect(test.status == 0 && test.stdout == "ok: hook: HTTP 204\n", "\(test.stdout) \(test.stderr)")
        let viaApprise = try await CLI.run(["notify", "test", "more"], in: dir, environment: environment)
        #expect(viaApprise.status == 0 && viaApprise.stdout == "ok: more: apprise exited 0\n", "\(viaApprise.stdout) \(viaApprise.stderr)")

        let watch = try await CLI.run(WatchHookTests.watchArguments(polls: 3, ["--notify", "hook", "--notify", "more"]), in: dir, environment: environment)
        #expect(watch.status == 0, "\(watch.stderr)")
        for output in [test.stdout + test.stderr, viaApprise.stderr, watch.stdout, watch.stderr] {
            #expect(!output.contains(Self.secret) && !output.contains("json://127.0.0.1"), "no secret shown: \(output)")
        }

        let verified = try await Self.verified(hook.posts)
        #expect(verified.count == 3 && verified.allSatisfy { $0["ok"] as? Bool == true }, "\(verified)")
        let payloads = verified.compactMap { $0["payload"] as? [String: Any] }
        #expect(payloads.dropFirst().map { $0["title"] as? String } == ["pass:flip: closed", "pass:flip: open"], "\(payloads)")
        #expect(payloads.dropFirst().allSatisfy { $0["urn"] as? String == "pass:flip" && $0["priority"] as? Int == 3 && $0["type"] as? String == "conditions.notice" })
        #expect((payloads.last?["before"] as? [String: Any])?["status"] as? String == "closed")
        let ids = verified.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == 3 && ids.dropFirst().allSatisfy { $0.hasSuffix("-hook") }, "\(ids)")

        let sent = apprise.posts.compactMap { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }
        #expect(sent.map { $0["title"] as? String } == ["Conditions: a test notice", "pass:flip: closed", "pass:flip: open"], "\(sent)")
        #expect((sent.last?["message"] as? String)?.contains("open") == true)
    }

    /// A watch killed while its notice's POST is in flight (claimed, never marked): the next
    /// watch, seeing the same state, sends it again under the same `webhook-id`, so the
    /// receiver can collapse the two. The source reads a state file the test writes: no timing.
    @Test func aNoticeInFlightAtSIGKILLIsSentAgainWithTheSameID() async throws {
        let hook = try Receiver(hangFirst: true)
        defer { hook.server.stop() }
        let dir = try Upstream.config(
            sources: #""gate": {"module": "Exec", "options": {"command": ["/bin/sh", "gate.sh"], "routes": ["pass:{name}"], "timeout": 600}}"#,
            routes: #""pass": "gate""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        try WatchHookTests.script(#"cat > /dev/null; printf '{"data": {"status": "%s"}}\n' "$(cat state 2>/dev/null || echo open)""#,
                                  at: dir.appendingPathComponent("gate.sh"))
        try Self.notifyConfig(dir, targets: #""hook": {"webhook": "\#(hook.server.url("/hook").absoluteString)", "secret": "${HOOK_SECRET}"}"#)
        let environment = ["HOOK_SECRET": Self.secret, "XDG_STATE_HOME": dir.appendingPathComponent("state-home").path]
        let arguments = ["watch", "--no-cache", "--every", "1s", "--format", "ndjson", "--notify", "hook", "pass:gate"]
        let first = try WatchHookTests.Watch(arguments + ["--count", "1000"], in: dir, environment: environment)
        let initial = await WatchHookTests.eventually { first.stdoutLines.count >= 1 }
        try "closed".write(to: dir.appendingPathComponent("state"), atomically: true, encoding: .utf8)
        let sending = await WatchHookTests.eventually { hook.posts.count >= 1 }
        await first.signal(SIGKILL)
        guard await first.finish(within: 30) else { return }
        try #require(initial && sending, "the change's notice was posted: \(first.stderr)")
        let again = try await CLI.run(arguments + ["--count", "1"], in: dir, environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        let verified = try await Self.verified(hook.posts)
        let ids = verified.compactMap { $0["id"] as? String }
        #expect(ids.count == 2 && ids[1] == ids[0], "the notice in flight, sent again with its id, and nothing new: \(ids) \(again.stderr)")
        #expect(verified.allSatisfy { $0["ok"] as? Bool == true })
        #expect((verified.last?["payload"] as? [String: Any])?["title"] as? String == "pass:gate: closed")
    }

    /// `doctor` checks each target without sending: ntfy's health and the credentials for the
    /// topic, the webhook's connection, Apprise's URLs parsing (and says that is all it checks).
    @Test func doctorChecksEachTargetAndSendsNothing() async throws {
        let ntfy = NtfyStandIn(authorization: "Bearer tk_doctor")
        try ntfy.start()
        defer { ntfy.stop() }
        let hook = try Receiver()
        defer { hook.server.stop() }
        let dir = try WatchHookTests.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.notifyConfig(dir, targets: #""phone": {"ntfy": "\#(ntfy.topicURL("passes").absoluteString)", "token": "${NTFY_TOKEN}"}, "#
            + #""hook": {"webhook": "\#(hook.server.url("/hook").absoluteString)", "secret": "${HOOK_SECRET}"}, "more": {"apprise": ["${APPRISE_URL}"]}"#)
        var environment = ["NTFY_TOKEN": "tk_doctor", "HOOK_SECRET": Self.secret, "APPRISE_URL": "json://127.0.0.1:9/x", "PATH": "\(Self.venv.path):/usr/bin:/bin"]
        let doctor = try await CLI.run(["doctor"], in: dir, environment: environment)
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("notify → phone") && $0.contains("healthy and takes the credentials") }, "\(doctor.stdout)")
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("notify → hook") && $0.contains("accepts connections") })
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("notify → more") && $0.contains("--dry-run only checks that") })
        #expect(ntfy.messages.isEmpty && hook.posts.isEmpty, "doctor sends nothing")
        environment["NTFY_TOKEN"] = "tk_wrong"
        let refused = try await CLI.run(["doctor"], in: dir, environment: environment)
        #expect(refused.stdout.split(separator: "\n").contains { $0.hasPrefix("FAIL") && $0.contains("notify → phone") && $0.contains("HTTP 401") },
                "\(refused.stdout)")
        #expect(!refused.stdout.contains("tk_wrong"))
    }
}
