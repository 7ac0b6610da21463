import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import ConditionsServer

/// `CachedAnswerHandler` keeps the connection's idle timeout and the graceful shutdown's order,
/// which Hummingbird's connection state handler behind it cannot for requests it never sees.
/// Driven in an `EmbeddedChannel` whose clock the test moves, with a real server's memory
/// behind it (a pass fetched from the loopback upstream once, then remembered for 300 s).
@Suite struct CachedAnswerHandlerTests {
    static let remembered = "/v1/urn/pass:snoqualmie"

    @Test func aConnectionBusyWithRememberedAnswersIsNotIdle() async throws {
        try await Self.withAnswers { answers in
            let (channel, behind) = try Self.connected(answers)
            // Three answers 0.9 s apart: each is activity, so the 1 s timeout never passes.
            for _ in 0..<3 {
                channel.embeddedEventLoop.advanceTime(by: .milliseconds(900))
                #expect(channel.isActive)
                #expect(try Self.ask(channel, Self.remembered) == [200])
            }
            #expect(behind.parts.isEmpty, "answered from memory, nothing passed on")
            // Then idle: closed a timeout after the last answer, not before.
            Self.expectClosedOneTimeoutLater(channel)
        }
    }

    @Test func aRequestPassedOnIsNotIdleUntilItsResponseEnds() async throws {
        try await Self.withAnswers { answers in
            let (channel, behind) = try Self.connected(answers)
            #expect(try Self.ask(channel, "/v1/urn/pass:stevens") == [], "not in memory: passed on")
            #expect(behind.parts.count == 2)
            // Hummingbird takes its time; the connection waits with it.
            channel.embeddedEventLoop.advanceTime(by: .seconds(5))
            #expect(channel.isActive)
            try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
            try channel.writeOutbound(HTTPServerResponsePart.end(nil))
            Self.expectClosedOneTimeoutLater(channel)
        }
    }

    @Test func aClientStoppedInTheMiddleOfARequestIsClosed() async throws {
        try await Self.withAnswers { answers in
            let (channel, _) = try Self.connected(answers)
            // A remembered URN, but its (meaningless) body never ends.
            try channel.writeInbound(HTTPServerRequestPart.head(Self.head(Self.remembered, bodyLength: 4)))
            try channel.writeInbound(HTTPServerRequestPart.body(ByteBuffer(string: "ab")))
            Self.expectClosedOneTimeoutLater(channel)
            #expect(try channel.readOutbound(as: HTTPServerResponsePart.self) == nil, "never answered")
        }
    }

    /// The state handler behind closes at once on a quiesce event when it knows of no request
    /// (`Behind` does the same): the event waits until the request being read is answered, and
    /// the answer is flushed before it goes on, or closing would drop it.
    @Test func aGracefulShutdownWaitsForTheRequestBeingRead() async throws {
        try await Self.withAnswers { answers in
            let (channel, behind) = try Self.connected(answers)
            try channel.writeInbound(HTTPServerRequestPart.head(Self.head(Self.remembered, bodyLength: 4)))
            channel.pipeline.syncOperations.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            #expect(behind.quiesced == 0, "held while the request is read")
            #expect(channel.isActive)
            // The end arrives without a read completing: only the handler's own flush sends it.
            channel.pipeline.syncOperations.fireChannelRead(NIOAny(HTTPServerRequestPart.body(ByteBuffer(string: "abcd"))))
            channel.pipeline.syncOperations.fireChannelRead(NIOAny(HTTPServerRequestPart.end(nil)))
            #expect(behind.quiesced == 1)
            #expect(!channel.isActive, "closed by the handler behind")
            #expect(try Self.statuses(channel) == [200], "the answer went out before the close")

            // With no request being read, the event goes straight on.
            let (idle, idleBehind) = try Self.connected(answers)
            idle.pipeline.syncOperations.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            #expect(idleBehind.quiesced == 1 && !idle.isActive)
        }
    }

    // MARK: - Helpers

    /// Records what the handler passes on and, like `HTTPConnectionStateHandler` with no request
    /// in progress, closes the connection on a quiesce event.
    final class Behind: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        var parts: [HTTPServerRequestPart] = []
        var quiesced = 0

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            parts.append(unwrapInboundIn(data))
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
            quiesced += 1
            context.close(promise: nil)
        }
    }

    /// A real server's memory, with `pass:snoqualmie` in it.
    static func withAnswers(_ body: @escaping @Sendable (CachedAnswers) throws -> Void) async throws {
        let (upstream, dir) = try ServeTests.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, environment: ServeTests.environment) { served in
            #expect(try await served.request(remembered).status == 200)
            let server = served.server
            try body(CachedAnswers(coordinator: server.coordinator, policy: server.policy, metrics: server.metrics,
                                   logger: Logger(label: "cached-answer-handler-tests")))
        }
    }

    /// A connected channel (its clock at 0) with the handler, idle timeout 1 s, and `Behind`.
    static func connected(_ answers: CachedAnswers) throws -> (EmbeddedChannel, Behind) {
        let behind = Behind()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([CachedAnswerHandler(answers: answers, idleTimeout: .seconds(1)), behind])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return (channel, behind)
    }

    /// Open 10 ms before the 1 s timeout after the last activity (which was just now), closed 10 ms after it.
    static func expectClosedOneTimeoutLater(_ channel: EmbeddedChannel, sourceLocation: SourceLocation = #_sourceLocation) {
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(990))
        #expect(channel.isActive, "closed before the idle timeout", sourceLocation: sourceLocation)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(20))
        #expect(!channel.isActive, "still open after the idle timeout", sourceLocation: sourceLocation)
    }

    static func head(_ path: String, bodyLength: Int? = nil) -> HTTPRequestHead {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "Host", value: "127.0.0.1")
        if let bodyLength { head.headers.add(name: "Content-Length", value: String(bodyLength)) }
        return head
    }

    /// Writes a whole GET of `path` as one read; the statuses answered without Hummingbird.
    static func ask(_ channel: EmbeddedChannel, _ path: String) throws -> [UInt] {
        channel.pipeline.syncOperations.fireChannelRead(NIOAny(HTTPServerRequestPart.head(head(path))))
        channel.pipeline.syncOperations.fireChannelRead(NIOAny(HTTPServerRequestPart.end(nil)))
        channel.pipeline.syncOperations.fireChannelReadComplete()
        return try statuses(channel)
    }

    /// The statuses of the responses written and flushed so far, each checked whole.
    static func statuses(_ channel: EmbeddedChannel) throws -> [UInt] {
        var statuses: [UInt] = []
        while let part = try channel.readOutbound(as: HTTPServerResponsePart.self) {
            guard case .head(let head) = part else { continue }
            statuses.append(head.status.code)
            guard case .body(.byteBuffer(let body)) = try channel.readOutbound(as: HTTPServerResponsePart.self) else {
                Issue.record("no body after the head")
                continue
            }
            #expect(head.headers["Content-Length"] == [String(body.readableBytes)])
            #expect(try channel.readOutbound(as: HTTPServerResponsePart.self) == .end(nil))
        }
        return statuses
    }
}
