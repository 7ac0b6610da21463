import Foundation
import Logging
import MCP

/// Wraps a transport so that end of input does not drop answers still being computed.
///
/// The SDK handles each request in a task of its own and ends its receive loop at end of
/// input; the process would then exit with those answers unsent, so a client that writes its
/// requests and closes stdin (a script, `conditions mcp < requests`) would get nothing. This
/// wrapper holds the end of its stream back until a reply has been sent for every message that
/// expects one, or until `drainLimit` passes, so a stuck handler cannot keep the process alive.
package actor DrainingTransport: Transport {
    private let inner: any Transport
    private let drainLimit: Duration
    package nonisolated let logger: Logger
    private var expected = 0
    private var sent = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

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

    package nonisolated func receive() -> AsyncThrowingStream<Data, Swift.Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await message in await self.inner.receive() {
                        await self.received(message)
                        continuation.yield(message)
                    }
                    await self.drain()
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func received(_ message: Data) { if Self.expectsReply(message) { expected += 1 } }

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

    /// Whether the client's `message` gets an answer: requests and unparseable lines do
    /// (the latter a parse error); notifications and the client's own replies do not.
    static func expectsReply(_ message: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any] else { return true }
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
