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

/// Polls `condition` for up to `timeout` seconds.
func eventually(timeout: Double = 3, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
