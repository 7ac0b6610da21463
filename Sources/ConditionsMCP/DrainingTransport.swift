import Foundation
import Logging
import MCP

/// Wraps a transport so that end of input does not drop answers still being computed, and
/// so that a batch cannot multiply one line into unbounded replies.
///
/// The SDK handles each request in a task of its own and ends its receive loop at end of
/// input; the process would then exit with those answers unsent, so a client that writes its
/// requests and closes stdin (a script, `conditions mcp < requests`) would get nothing. This
/// wrapper holds the end of its stream back until a reply has been sent for every message that
/// expects one, or until `drainLimit` passes, so a stuck handler cannot keep the process alive.
///
/// Messages are passed on one at a time as the SDK asks for them, so the inner transport's
/// flow control (`LineTransport`) reaches the client. A JSON-RPC batch (an array of messages;
/// MCP dropped batching in 2025-06-18, the SDK still takes it) is answered as one array that
/// the SDK builds in memory: more than `maximumBatch` messages in one is refused here.
package actor DrainingTransport: Transport {
    /// The most messages one batch may hold.
    package static let maximumBatch = 32
    private let inner: any Transport
    private let drainLimit: Duration
    package nonisolated let logger: Logger
    private var expected = 0
    private var sent = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var upstream: AsyncThrowingStream<Data, Swift.Error>.AsyncIterator?

    /// `inner` with its end of input delayed until every expected reply is out.
    package init(_ inner: any Transport, logger: Logger, drainLimit: Duration = .seconds(30)) {
        self.inner = inner
        self.logger = logger
        self.drainLimit = drainLimit
    }

    package func connect() async throws { try await inner.connect() }
    package func disconnect() async { await inner.disconnect() }

    package func send(_ data: Data) async throws {
        try await inner.send(data)
        // Only replies count; a notification the server sends answers nothing.
        if Self.isReply(data) {
            sent += 1
            if sent >= expected { resumeWaiters() }
        }
    }

    /// The inner transport's messages, each taken when the SDK asks for the next.
    package nonisolated func receive() -> AsyncThrowingStream<Data, Swift.Error> {
        AsyncThrowingStream { try await self.next() }
    }

    /// The next message to pass on; nil (after draining) at end of input.
    private func next() async throws -> Data? {
        // Only the SDK's receive loop calls this, one call at a time, so the iterator is
        // taken out across the await and put back.
        var iterator: AsyncThrowingStream<Data, Swift.Error>.AsyncIterator
        if let upstream { iterator = upstream } else { iterator = await inner.receive().makeAsyncIterator() }
        defer { upstream = iterator }
        while let message = try await iterator.next(isolation: self) {
            switch Self.inspect(message) {
            case .batch(let count, _) where count > Self.maximumBatch:
                logger.warning("stdin: a batch of \(count) messages was refused")
                let reply = #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a batch holds at most \#(Self.maximumBatch) messages, this one \#(count); send them one per line"}}"#
                try await inner.send(Data(reply.utf8))
                continue
            case .expectsReply, .batch(_, true):
                expected += 1
            case .noReply, .batch(_, false):
                break
            }
            return message
        }
        await drain()
        return nil
    }

    /// Waits until every expected reply is sent or the limit passes.
    private func drain() async {
        guard sent < expected else { return }
        let limit = drainLimit
        let timer = Task { [weak self] in
            try? await Task.sleep(for: limit)
            await self?.resumeWaiters()
        }
        await withCheckedContinuation { waiters.append($0) }
        timer.cancel()
        if sent < expected { logger.warning("input ended with \(expected - sent) request(s) unanswered after \(limit)") }
    }

    private func resumeWaiters() {
        let pending = waiters
        waiters.removeAll()
        for waiter in pending { waiter.resume() }
    }

    /// What a client's message asks of the server.
    enum Inspection: Equatable {
        /// A request, or a line that is not a message (answered with an error).
        case expectsReply
        /// A notification, or the client's own reply to a server request.
        case noReply
        /// A JSON array of `count` messages, answered as one array unless it holds only
        /// notifications and replies.
        case batch(count: Int, expectsReply: Bool)
    }

    static func inspect(_ message: Data) -> Inspection {
        switch try? JSONSerialization.jsonObject(with: message) {
        case let array as [Any]:
            // An empty batch is answered with an error.
            return .batch(count: array.count, expectsReply: array.isEmpty || array.contains { expectsReply($0) })
        case let element?:
            return expectsReply(element) ? .expectsReply : .noReply
        case nil:
            return .expectsReply
        }
    }

    /// Whether one decoded message gets an answer: requests do, and anything that is not a
    /// message (a parse error); notifications and the client's own replies do not.
    private static func expectsReply(_ element: Any) -> Bool {
        guard let object = element as? [String: Any] else { return true }
        let hasID = object["id"] != nil && !(object["id"] is NSNull)
        if object["method"] != nil { return hasID }
        return object["result"] == nil && object["error"] == nil
    }

    /// Whether the server's `message` is a reply (it has a result or an error).
    static func isReply(_ message: Data) -> Bool {
        // The SDK encodes replies with these keys; scanning bytes avoids re-parsing a large result.
        message.range(of: Data("\"result\"".utf8)) != nil || message.range(of: Data("\"error\"".utf8)) != nil
    }
}
