import ConditionsHTTP
import ConditionsKit
import Foundation
import LoopbackServer
import Testing

/// A started server set up by `configure`; stopped when the returned value is released.
func startServer(_ configure: (LoopbackServer) -> Void = { _ in }) throws -> LoopbackServer {
    let server = LoopbackServer()
    configure(server)
    try server.start()
    return server
}

/// A client as the host would make one, with `limits`.
func makeClient(_ limits: HTTPLimits = HTTPLimits()) throws -> CurlHTTPClient {
    try CurlHTTPClient(version: "9.9-test", limits: limits)
}

/// The `HTTPError` that `operation` throws, recording an issue if it returns or throws something else.
func httpError(_ operation: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> HTTPError? {
    do {
        try await operation()
        Issue.record("expected an HTTPError, got success", sourceLocation: sourceLocation)
    } catch let error as HTTPError {
        return error
    } catch {
        Issue.record("expected an HTTPError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Seconds `operation` took.
func seconds(_ operation: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await operation()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Polls `condition` until it holds: it returns as soon as the condition holds, so the two
/// minutes only decide how long a failing test waits, and no stall of a loaded machine
/// reaches them.
func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {  // wall-clock-ok: a hang guard: it ends when the condition holds, 2 min after a hang
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

/// Holds each arriving request (on its connection thread) until `count` have arrived, for at
/// most `seconds` (two minutes, which only a client that never sends reaches): those `count`
/// are then provably in flight at once, whenever the client's tasks got to run. Later
/// arrivals pass at once.
final class Barrier: @unchecked Sendable {
    // @unchecked: `arrived` is only touched with `condition` locked.
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0

    init(_ count: Int) { self.count = count }

    func arrive(waitingAtMost seconds: Double = 120) {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        arrived += 1
        condition.broadcast()
        while arrived < count, condition.wait(until: deadline) {}  // wall-clock-ok: a hang guard: the others arrive in moments; 2 min only ends a hang
        condition.unlock()
    }
}
