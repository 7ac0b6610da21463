import Foundation
import LoopbackServer
import Synchronization
import TestHarness
import Testing

/// An upstream that hangs for one URN holds only that URN's clients; every other URN answers
/// meanwhile, from the same upstream host and from a local source; and the source's timeout
/// answers the held clients 504, no sooner than it allows.
@Suite struct FaultIsolationTests {
    /// A config with WSDOT's pages on `upstream` under the http timeout `timeout`.
    static func config(_ upstream: LoopbackServer, timeout: Double) throws -> URL {
        try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "options": {"mode": "html", "baseURL": "\#(upstream.url("/passes").absoluteString)"}, "http": {"timeout": \#(timeout)}}"#,
            routes: #""pass": "wsdot", "moon": "astronomy""#,
            extra: #", "cache": {"enabled": false}"#)
    }

    /// Stevens' page is held behind a gate the test opens only after every other URN was
    /// answered, under an hour's timeout: the order is the events', so no load can race it.
    @Test(.timeLimit(.minutes(5)))
    func aHungUpstreamHoldsOnlyItsOwnURN() async throws {
        let upstream = LoopbackServer()
        try Upstream.servePassPages(on: upstream)
        let page = try Upstream.text("Plugins/WSDOT/Tests/Resources/snoqualmie-winter.html")
        let held = Gate()
        upstream.route("/passes/stevens") { _ in
            held.wait()
            return .text(page, contentType: "text/html; charset=utf-8")
        }
        try upstream.start()
        defer { held.open(); upstream.stop() }
        let dir = try Self.config(upstream, timeout: 3600)
        defer { try? FileManager.default.removeItem(at: dir) }

        try await InProcessServer.with(in: dir) { server in
            let hungFinished = Finished()
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let reply = try await server.request("/v1/urn/pass:stevens")
                        hungFinished.count.add(1, ordering: .sequentiallyConsistent)
                        return reply.status
                    }
                }
                // The server is waiting on the upstream for Stevens…
                let deadline = ContinuousClock.now + .seconds(120)
                while upstream.requestCount("/passes/stevens") == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }  // wall-clock-ok: a hang guard: the fetch starts at once; 2 min only end a hang
                #expect(upstream.requestCount("/passes/stevens") == 1)

                // …and meanwhile answers everything else: another pass from the same host, the
                // local moon, and both together.
                let snoqualmie = try await server.request("/v1/urn/pass:snoqualmie")
                let moon = try await server.request("/v1/urn/moon:now")
                let both = try await server.request("/v1/resolve?urn=pass:white&urn=moon:now")
                #expect(snoqualmie.status == 200)
                #expect((snoqualmie.object["data"] as? [String: Any])?["status"] != nil)
                #expect(moon.status == 200)
                #expect(both.status == 200 && (both.json as? [[String: Any]])?.allSatisfy { $0["error"] == nil } == true, "\(both.body.prefix(300))")
                #expect(hungFinished.count.load(ordering: .sequentiallyConsistent) == 0, "the other URNs answered while Stevens was still outstanding")

                // Then Stevens' page comes, and its clients share the one fetch.
                held.open()
                for try await status in group { #expect(status == 200) }
            }
            #expect(upstream.requestCount("/passes/stevens") == 1, "Stevens' clients share one fetch")
        }
    }

    /// Stevens' page sends its head and then nothing: its clients get the source's timeout.
    @Test(.timeLimit(.minutes(5)))
    func aHungUpstreamIsAnsweredWithTheTimeoutNoSoonerThanItAllows() async throws {
        let upstream = LoopbackServer()
        let page = try Upstream.text("Plugins/WSDOT/Tests/Resources/snoqualmie-winter.html")
        upstream.route("/passes/stevens", LoopbackServer.Response.text(page, contentType: "text/html; charset=utf-8").with(.hangAfterHeaders))
        try upstream.start()
        defer { upstream.stop() }
        let dir = try Self.config(upstream, timeout: 2)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: (Int, String?, Duration).self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let reply = try await server.request("/v1/urn/pass:stevens")
                        return (reply.status, (reply.object["error"] as? [String: Any])?["kind"] as? String, started.duration(to: .now))
                    }
                }
                for try await (status, kind, waited) in group {
                    #expect(status == 504)
                    #expect(kind == "timeout")
                    #expect(waited >= .seconds(2) - .milliseconds(50), "answered after \(waited)")  // wall-clock-ok: a lower bound, timed from before the requests: a stall only lengthens it
                }
            }
            #expect(upstream.requestCount("/passes/stevens") == 1, "Stevens' clients share one fetch")
        }
    }

    final class Finished: Sendable {
        let count = Atomic<Int>(0)
    }
}
