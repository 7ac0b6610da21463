import AsyncHTTPClient
import Foundation
import LoopbackServer
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import TestHarness
import Testing

/// `CachedAnswerHandler`: a fresh result in memory is answered on the event loop, below
/// Hummingbird, with exactly the router's response; everything else still reaches the router,
/// and responses keep the order of their requests.
@Suite struct CachedAnswerTests {
    static let token = "serve-token-0123456789abcdef"
    static let origin = "https://board.example"

    @Test func anAnswerFromMemoryIsTheRoutersAnswer() async throws {
        let (upstream, dir) = try ServeTests.setUp(extra: #", "serve": {"cors": ["\#(Self.origin)"]}"#)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        let environment = ServeTests.environment.merging(["CONDITIONS_SERVE_TOKEN": Self.token]) { $1 }
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0", "-v"], in: dir, environment: environment) { server in
            let asked = [("Authorization", "Bearer \(Self.token)"), ("Origin", Self.origin)]
            let beforeFetch = ContinuousClock.now
            let routed = try await server.request("/v1/urn/pass:snoqualmie", headers: asked)
            #expect(try await Self.eventLoopAnswers(server) == 0, "a cold result is resolved through the router")
            let remembered = try await server.request("/v1/urn/pass:snoqualmie", headers: asked)
            #expect(try await Self.eventLoopAnswers(server) == 1, "a fresh one is answered from memory")

            #expect(routed.status == 200 && remembered.status == 200)
            #expect(remembered.body == routed.body)
            Self.expectSameHeaders(remembered, routed, fetchedAfter: beforeFetch)
            #expect(remembered.header("Access-Control-Allow-Origin") == Self.origin)
            #expect(remembered.header("Date")?.hasSuffix(" GMT") == true)
            // A plain request's head is reused within its second; never for one with an Origin.
            let plain = try await server.request("/v1/urn/pass:snoqualmie", headers: [("Authorization", "Bearer \(Self.token)")])
            #expect(plain.header("Access-Control-Allow-Origin") == nil)
            let withOrigin = try await server.request("/v1/urn/pass:snoqualmie", headers: asked)
            #expect(withOrigin.header("Access-Control-Allow-Origin") == Self.origin)
            #expect(withOrigin.body == routed.body && plain.body == routed.body)

            let etag = try #require(remembered.header("ETag"))
            let notModified = try await server.request("/v1/urn/pass:snoqualmie", headers: asked + [("If-None-Match", "W/\"other\", \(etag)")])
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(notModified.header("ETag") == etag)
            #expect(try await Self.eventLoopAnswers(server) == 4)

            // Refusals are the router's, with its one-line errors.
            let anonymous = try await server.request("/v1/urn/pass:snoqualmie")
            #expect(anonymous.status == 401)
            #expect((anonymous.object["error"] as? [String: Any])?["kind"] as? String == "unauthorized")
            let wrong = try await server.request("/v1/urn/pass:snoqualmie", headers: [("Authorization", "Bearer \(String(Self.token.reversed()))")])
            #expect(wrong.status == 401)
            #expect(try await Self.eventLoopAnswers(server) == 4)

            // Counted as the router counts: by endpoint and status.
            let metrics = try await server.request("/metrics", headers: asked).body
            #expect(metrics.contains(#"conditions_http_requests_total{endpoint="/v1/urn",status="200"} 4"#))
            #expect(metrics.contains(#"conditions_http_requests_total{endpoint="/v1/urn",status="304"} 1"#))
            #expect(metrics.contains(#"conditions_http_requests_total{endpoint="/v1/urn",status="401"} 2"#))
        }
        #expect(ended.status == 0)
        // One log line per request at -v, whichever path answered it.
        let lines = ended.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("GET /v1/urn/pass:snoqualmie 200 ") }.count == 4)
        #expect(lines.filter { $0.contains("GET /v1/urn/pass:snoqualmie 304 ") }.count == 1)
        #expect(!ended.stderr.contains(Self.token))
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        // No disk cache, `--refresh` (no document kept for the next URN) and a slow upstream: a
        // URN not yet in memory takes a while to answer.
        let (upstream, dir) = try ServeTests.setUp(cache: #""cache": {"enabled": false}"#)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        let feed = try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")
        upstream.route("/api/GetMountainPassConditionsAsJson",
                       .init(status: 200, headers: ["Content-Type": "application/json"], body: Data(feed.utf8), delay: 0.3))
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0", "--refresh"], in: dir, environment: ServeTests.environment) { server in
            let warm = try await server.request("/v1/urn/pass:snoqualmie")
            let etag = try #require(warm.header("ETag"))
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }

            // The slow request first: the two remembered ones behind it wait for it, through the router.
            let behindSlow = try await connection.exchange([
                RawConnection.get("/v1/urn/pass:all"),
                RawConnection.get("/v1/urn/pass:snoqualmie", headers: ["If-None-Match": etag]),
                RawConnection.get("/v1/urn/pass:snoqualmie"),
            ])
            #expect(behindSlow.map(\.status) == [200, 304, 200])
            #expect(behindSlow[0].body.contains(#""urn":"pass:all""#))
            #expect(behindSlow[2].body == warm.body)
            #expect(try await Self.eventLoopAnswers(server) == 0)
            #expect(upstream.stats.totalRequests == 2)

            // Nothing in flight: the same two are answered on the event loop, in order too.
            let remembered = try await connection.exchange([
                RawConnection.get("/v1/urn/pass:snoqualmie", headers: ["If-None-Match": etag]),
                RawConnection.get("/v1/urn/pass:snoqualmie"),
                RawConnection.get("/healthz"),
                RawConnection.get("/v1/urn/pass:snoqualmie"),
            ])
            #expect(remembered.map(\.status) == [304, 200, 200, 200])
            #expect(remembered[2].body == "ok\n")
            #expect(remembered[1].body == warm.body && remembered[3].body == warm.body)
            #expect(try await Self.eventLoopAnswers(server) >= 2)
            // Both 304s carry the same headers but the date, whichever path made them.
            #expect(Self.withoutDate(remembered[0].head) == Self.withoutDate(behindSlow[1].head))
            // A conditional request after plain ones still gets its 304.
            let mixed = try await connection.exchange([
                RawConnection.get("/v1/urn/pass:snoqualmie"),
                RawConnection.get("/v1/urn/pass:snoqualmie", headers: ["If-None-Match": etag]),
                RawConnection.get("/v1/urn/pass:snoqualmie"),
            ])
            #expect(mixed.map(\.status) == [200, 304, 200])
            #expect(mixed[2].body == warm.body)
            // The connection stays open, idle, into SIGTERM: the server still stops at once and cleanly.
        }
        #expect(ended.status == 0)
    }

    /// Equal header fields but `Date`, and `Cache-Control` as `max-age` of either second (the
    /// 300 s TTL left of a result fetched after `since`).
    static func expectSameHeaders(_ one: Reply, _ other: Reply, fetchedAfter since: ContinuousClock.Instant,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        func fields(_ reply: Reply) -> [String: String] {
            Dictionary(reply.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
                .filter { $0.key != "date" && $0.key != "cache-control" }
        }
        #expect(fields(one) == fields(other), sourceLocation: sourceLocation)
        for reply in [one, other] {
            let problem = reply.maxAgeProblem(ttl: 300, fetchedAfter: since)
            #expect(problem == nil, "\(problem ?? "")", sourceLocation: sourceLocation)
        }
    }

    static func withoutDate(_ head: String) -> [String] {
        head.split(separator: "\r\n").map(String.init).filter { !$0.lowercased().hasPrefix("date:") && !$0.lowercased().hasPrefix("cache-control:") }
    }

    static func eventLoopAnswers(_ server: ServeProcess) async throws -> Int {
        let text = try await server.request("/metrics", headers: [("Authorization", "Bearer \(token)")]).body
        let line = text.split(separator: "\n").first { $0.hasPrefix("conditions_http_event_loop_answers_total ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
    }
}

/// One plain HTTP/1.1 connection that writes several requests at once (pipelined) and reads
/// their responses in the order they come.
///
/// `@unchecked Sendable`: one test task uses it, one call at a time.
final class RawConnection: @unchecked Sendable {
    struct Response: Sendable {
        let status: Int
        /// The status line and headers.
        let head: String
        let body: String
    }

    private let channel: any Channel
    private var inbound: AsyncStream<ByteBuffer>.AsyncIterator
    private var received: [UInt8] = []

    private init(channel: any Channel, inbound: AsyncStream<ByteBuffer>) {
        self.channel = channel
        self.inbound = inbound.makeAsyncIterator()
    }

    static func open(port: Int) async throws -> RawConnection {
        let (inbound, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Received(continuation)) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, inbound: inbound)
    }

    /// Hands what the server sends to the connection's `inbound`, and ends it when the
    /// connection closes.
    private final class Received: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let continuation: AsyncStream<ByteBuffer>.Continuation

        init(_ continuation: AsyncStream<ByteBuffer>.Continuation) { self.continuation = continuation }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            continuation.yield(unwrapInboundIn(data))
        }

        func channelInactive(context: ChannelHandlerContext) {
            continuation.finish()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    static func get(_ path: String, headers: [String: String] = [:]) -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n"
    }

    /// Writes every request in one write, then reads one response per request (bodies by
    /// `Content-Length`; none for 304). The connection is closed if that takes over 30 s.
    func exchange(_ requests: [String]) async throws -> [Response] {
        let channel = channel
        let deadline = channel.eventLoop.scheduleTask(in: .seconds(30)) { channel.close(promise: nil) }
        defer { deadline.cancel() }
        try await channel.writeAndFlush(ByteBuffer(string: requests.joined()))
        var responses: [Response] = []
        while responses.count < requests.count {
            if let (response, used) = Self.parse(received) {
                responses.append(response)
                received.removeFirst(used)
                continue
            }
            guard var chunk = await inbound.next() else { throw ClosedEarly(received: responses.count) }
            received += chunk.readBytes(length: chunk.readableBytes) ?? []
        }
        return responses
    }

    /// Writes `text` as it is (a request, or part of one).
    func write(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Reads until what was received contains `text`; false if the connection closed first or
    /// `seconds` passed.
    func read(until text: String, within seconds: Int64) async throws -> Bool {
        let channel = channel
        let deadline = channel.eventLoop.scheduleTask(in: .seconds(seconds)) { channel.close(promise: nil) }
        defer { deadline.cancel() }
        while !String(decoding: received, as: UTF8.self).contains(text) {
            guard var chunk = await inbound.next() else { return false }
            received += chunk.readBytes(length: chunk.readableBytes) ?? []
        }
        return true
    }

    /// Reads until the server closes the connection; the seconds from `since` until then, or
    /// nil if it was still open after `seconds` more (the connection is closed then). The close
    /// is timed on the event loop that sees it, not when this task gets round to reading it, so
    /// a stalled test does not stretch the figure past what the server did.
    func secondsUntilClosedByServer(since started: ContinuousClock.Instant, within seconds: Int64) async throws -> Double? {
        let channel = channel
        let deadlinePassed = Mutex(false)
        let closedAt = Mutex<ContinuousClock.Instant?>(nil)
        channel.closeFuture.whenComplete { _ in closedAt.withLock { $0 = $0 ?? .now } }
        let deadline = channel.eventLoop.scheduleTask(in: .seconds(seconds)) {
            deadlinePassed.withLock { $0 = true }
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        while await inbound.next() != nil {}
        try? await channel.closeFuture.get()
        guard !deadlinePassed.withLock({ $0 }) else { return nil }
        let elapsed = (closedAt.withLock { $0 } ?? .now) - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Why the server's close of this connection cannot have been its idle timeout, or nil if it
    /// can. `since` must be taken before the connection's last activity (its connect, or the
    /// write of its last request): the server's idle clock starts no earlier, so a correct
    /// server closes no sooner than `idleTimeout` after `since`, and a stall in this test can
    /// only make the figure longer, never shorter. `within`: how long to wait at most.
    func idleCloseProblem(since: ContinuousClock.Instant, idleTimeout: Duration, within seconds: Int64 = 20) async throws -> String? {
        guard let closedAfter = try await secondsUntilClosedByServer(since: since, within: seconds) else {
            return "still open after \(seconds) s"
        }
        // Timers on the event loop fire at their deadline or later; the slack covers the two
        // clocks' reading granularity only.
        let timeout = Double(idleTimeout.components.seconds) + Double(idleTimeout.components.attoseconds) / 1e18
        guard closedAfter >= timeout - 0.05 else {
            return "closed \(closedAfter) s after its last activity, before the \(timeout) s idle timeout"
        }
        return nil
    }

    /// Closes the connection; called before the last reference goes.
    func close() {
        channel.close(promise: nil)
    }

    struct ClosedEarly: Error {
        /// Responses read before the connection closed (or the deadline closed it).
        let received: Int
    }

    /// The first whole response in `bytes` and how many bytes it took.
    static func parse(_ bytes: [UInt8]) -> (Response, Int)? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.dropLast(3).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length = head.split(separator: "\r\n").compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first ?? 0
        let bodyLength = status == 304 ? 0 : length
        let total = end + 4 + bodyLength
        guard bytes.count >= total else { return nil }
        return (Response(status: status, head: head, body: String(decoding: bytes[(end + 4)..<total], as: UTF8.self)), total)
    }
}
