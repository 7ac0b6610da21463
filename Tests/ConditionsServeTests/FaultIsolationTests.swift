import Foundation
import LoopbackServer
import Synchronization
import TestHarness
import Testing

/// An upstream that hangs for one URN holds only that URN's clients, until the source's
/// timeout answers them 504; every other URN answers meanwhile, from the same upstream host
/// and from a local source.
@Suite struct FaultIsolationTests {
    /// Long enough that the other URNs answer well within it even on a loaded 2-core machine
    /// (8 s once was not, with the whole suite running beside a package build).
    static let timeout = 20.0

    @Test func aHungUpstreamHoldsOnlyItsOwnURN() async throws {
        let upstream = LoopbackServer()
        try Upstream.servePassPages(on: upstream)
        let page = try Upstream.text("Plugins/WSDOT/Tests/Resources/snoqualmie-winter.html")
        // Stevens' page: the head, then nothing until the client gives up.
        upstream.route("/passes/stevens", LoopbackServer.Response.text(page, contentType: "text/html; charset=utf-8").with(.hangAfterHeaders))
        try upstream.start()
        defer { upstream.stop() }
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "options": {"mode": "html", "baseURL": "\#(upstream.url("/passes").absoluteString)"}, "http": {"timeout": \#(Self.timeout)}}"#,
            routes: #""pass": "wsdot", "moon": "astronomy""#,
            extra: #", "cache": {"enabled": false}"#)
        defer { try? FileManager.default.removeItem(at: dir) }

        try await InProcessServer.with(in: dir) { server in
            let hungFinished = Finished()
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: (Int, Duration).self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let reply = try await server.request("/v1/urn/pass:stevens")
                        hungFinished.count.add(1, ordering: .sequentiallyConsistent)
                        #expect((reply.object["error"] as? [String: Any])?["kind"] as? String == "timeout")
                        return (reply.status, started.duration(to: .now))
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
                #expect(upstream.requestCount("/passes/stevens") == 1, "Stevens' clients share one fetch")

                // Then Stevens' clients get the timeout, no sooner than the source allows.
                for try await (status, waited) in group {
                    #expect(status == 504)
                    #expect(waited >= .seconds(Self.timeout) - .milliseconds(50), "answered after \(waited)")  // wall-clock-ok: a lower bound, timed from before the requests: a stall only lengthens it
                }
            }
            #expect(upstream.requestCount("/passes/stevens") == 1)
        }
    }

    final class Finished: Sendable {
        let count = Atomic<Int>(0)
    }
}
