import ConditionsHTTP
import ConditionsKit
import Foundation
import LoopbackServer
import Testing

/// Timing-sensitive tests run one at a time so they do not compete for the machine's cores.
@Suite("CurlHTTPClient concurrency, reuse and cancellation", .serialized)
struct ConcurrencyTests {
    @Test func twentyConcurrentRequestsAllSucceed() async throws {
        let server = try startServer {
            $0.route("/echo") { request in .text(request.query ?? "") }
        }
        let client = try makeClient()
        let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for n in 0..<20 {
                group.addTask {
                    let response = try await client.get(server.url("/echo?n=\(n)"))
                    try response.requireSuccess()
                    return (n, String(decoding: response.body, as: UTF8.self))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(bodies.count == 20)
        #expect(bodies.allSatisfy { $0.value == "n=\($0.key)" })
        #expect(server.stats.totalRequests == 20)
        #expect(server.stats.maxConcurrentConnections <= 6)
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let server = try startServer { $0.route("/r", .text("again")) }
        let client = try makeClient()
        for _ in 0..<12 {
            #expect(try await client.get(server.url("/r")).status == 200)
        }
        #expect(server.stats.totalRequests == 12)
        #expect(server.stats.connectionsAccepted == 1)
        #expect(Set(server.requests.map(\.connection)).count == 1)
    }

    @Test func concurrentRequestsToOneHostAreCappedAndReuseConnections() async throws {
        // The first six are held until all six have arrived: six connections at once however
        // late the pool runs some of the tasks (a request answered before the sixth is sent
        // would leave its connection free for it).
        let six = Barrier(6)
        let server = try startServer {
            $0.route("/slow") { _ in
                six.arrive()
                return Response.text("ok").delayed(0.5)
            }
        }
        let client = try makeClient()
        let elapsed = try await seconds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await client.get(server.url("/slow")).requireSuccess() }
                }
                try await group.waitForAll()
            }
        }
        // Six at a time: two rounds of half a second each.
        // At least two rounds; that they overlap six at a time is proven by the server's
        // counters, not by a wall-clock bound a loaded machine could miss.
        #expect(elapsed >= 0.95)  // wall-clock-ok: a lower bound, timed from before the first request: a stall only lengthens it
        #expect(server.stats.maxConcurrentConnections == 6)
        #expect(server.stats.connectionsAccepted <= 6)
        #expect(server.stats.totalRequests == 12)
    }

    @Test func limitedViewCanLowerTheConnectionCap() async throws {
        let two = Barrier(2)
        let server = try startServer {
            $0.route("/slow") { _ in
                two.arrive()
                return Response.text("ok").delayed(0.2)
            }
        }
        let client = try makeClient()
        let gentle = client.limited(HTTPLimits(maxConnectionsPerHost: 2))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                group.addTask { try await gentle.get(server.url("/slow")).requireSuccess() }
            }
            try await group.waitForAll()
        }
        #expect(server.stats.maxConcurrentConnections == 2)
    }

    @Test func differentHostsDoNotWaitForEachOther() async throws {
        // The busy host holds its answer until the others have been answered (60 s at most):
        // waiting behind it would take the whole minute, so a bound of 20 s tells the two apart
        // whatever a loaded machine adds (0.5 s failed once with three builds running).
        let held = Gate()
        let busy = try startServer {
            $0.route("/slow") { _ in
                held.wait(atMost: 60)
                return .text("slow")
            }
        }
        defer { held.open() }
        let other = try startServer { $0.route("/fast", .text("fast")) }
        let client = try makeClient(HTTPLimits(maxConnectionsPerHost: 1))

        // Same server, but "localhost" is a different host to the client and to curl's pool.
        let targets = [other.url("/fast"), busy.url("/slow", host: "localhost")]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask { try await client.get(busy.url("/slow")).requireSuccess() }
            }
            // One busy request holds the host's only connection; the other two wait behind it.
            #expect(await eventually { busy.stats.totalRequests == 1 })
            let fast = try await seconds { try await client.get(targets[0]).requireSuccess() }
            #expect(fast < 20)
            busy.route("/fast", .text("fast"))
            let sameServerOtherName = try await seconds {
                try await client.get(busy.url("/fast", host: "localhost")).requireSuccess()
            }
            #expect(sameServerOtherName < 20)
            #expect(busy.requestCount("/slow") == 1, "the busy host was still busy")
            held.open()
            group.cancelAll()
        }
    }

    @Test func cancellingTheTaskStopsTheTransfer() async throws {
        let server = try startServer { $0.route("/slow", Response.text("late").delayed(3600)) }
        let client = try makeClient()
        let task = Task { try await client.get(server.url("/slow")) }
        #expect(await eventually { server.stats.totalRequests == 1 })

        // Judged by the outcome, not by the time it took: the server would answer after an
        // hour, so only a stopped transfer ends in CancellationError with the connection closed.
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        // The easy handle was removed, so the connection closes and the server notices.
        #expect(await eventually { server.stats.openConnections == 0 })
    }

    @Test func cancelledTaskNeverSendsTheRequest() async throws {
        let server = try startServer { $0.route("/x", .text("x")) }
        let client = try makeClient()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.get(server.url("/x"))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(server.stats.totalRequests == 0)
    }

    @Test func cancellingAQueuedRequestLeavesOthersRunning() async throws {
        // The first request holds the only connection until the queued one is cancelled, so
        // the queued one cannot have been sent first, however long this test stalls.
        let held = Gate()
        let server = try startServer {
            $0.route("/slow") { _ in
                held.wait(atMost: 60)
                return .text("done")
            }
        }
        defer { held.open() }
        let client = try makeClient(HTTPLimits(maxConnectionsPerHost: 1))
        let first = Task { try await client.get(server.url("/slow")) }
        #expect(await eventually { server.stats.totalRequests == 1 })
        let queued = Task { try await client.get(server.url("/slow?queued")) }
        // Time to join the queue; cancelled earlier, it is never sent either.
        try await Task.sleep(for: .milliseconds(100))
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        held.open()

        #expect(try await first.value.status == 200)
        #expect(server.stats.totalRequests == 1)
    }

    @Test func shutdownFailsRequestsInFlightAndAfterwards() async throws {
        let server = try startServer { $0.route("/slow", Response.text("late").delayed(3600)) }
        let client = try makeClient()
        let task = Task { try await client.get(server.url("/slow")) }
        #expect(await eventually { server.stats.totalRequests == 1 })
        client.shutdown()
        let inFlight = await httpError { _ = try await task.value }
        #expect(inFlight == .transport(url: server.url("/slow").absoluteString, detail: "HTTP client was shut down"))
        let later = await httpError { _ = try await client.get(server.url("/slow")) }
        #expect(later?.kind == .network)
        client.shutdown()
    }

    @Test func releasingTheClientStopsItsThread() async throws {
        let server = try startServer { $0.route("/x", .text("x")) }
        var client: CurlHTTPClient? = try makeClient()
        weak let weakClient = client
        #expect(try await client?.get(server.url("/x")).status == 200)
        client = nil
        #expect(weakClient == nil)
        #expect(await eventually { server.stats.openConnections == 0 })
    }
}
