import ConditionsKit
import ConditionsKitTesting
import Foundation
import HostTestSupport
import Logging
import Synchronization
import Testing
@testable import ConditionsCore

/// `RetryingHTTPClient` with a request's own `HTTPRetry` (NWS: 500 and 503, twice): how many
/// attempts, how long each wait (recorded, never slept), `Retry-After` honoured or refused.
@Suite struct RetryPolicyTests {
    final class Waits: Sendable {
        let all = Mutex<[Double]>([])
    }

    func run(_ script: [(Int, String?)], retry: HTTPRetry) async throws -> (status: Int, attempts: Int, waits: [Double]) {
        // Answers from the script of statuses (and Retry-After values), then 200.
        let base = RecordingHTTPClient(inOrder: script.map { .response(status: $0.0, headers: $0.1.map { ["retry-after": $0] } ?? [:]) },
                                       then: .status(200))
        let waits = Waits()
        var client = RetryingHTTPClient(base: base, logger: Logger(label: "test"))
        client.sleep = { seconds in waits.all.withLock { $0.append(seconds) } }
        let response = try await client.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/x")!, retry: retry))
        return (response.status, base.requests.count, waits.all.withLock { $0 })
    }

    let nws = HTTPRetry(statuses: [429, 500, 502, 503, 504], attempts: 2)

    @Test func twiceWithDoublingBackoff() async throws {
        var outcome = try await run([(500, nil), (503, nil)], retry: nws)
        #expect(outcome.status == 200 && outcome.attempts == 3 && outcome.waits == [0.5, 1.0])
        outcome = try await run([(503, nil), (503, nil), (503, nil)], retry: nws)
        #expect(outcome.status == 503 && outcome.attempts == 3 && outcome.waits == [0.5, 1.0], "at most twice")
    }

    @Test func retryAfterIsHonouredUpToFiveSeconds() async throws {
        var outcome = try await run([(503, "2"), (503, "0")], retry: nws)
        #expect(outcome.status == 200 && outcome.waits == [2, 0])
        outcome = try await run([(503, nil), (503, "60")], retry: nws)
        #expect(outcome.status == 503 && outcome.attempts == 2 && outcome.waits == [0.5], "a minute is not waited for")
    }

    @Test func theDefaultIsOnceAndNeverOn500() async throws {
        #expect(HTTPRequest(url: URL(string: "http://x/")!).retry == .standard)
        var outcome = try await run([(503, nil), (503, nil)], retry: .standard)
        #expect(outcome.status == 503 && outcome.attempts == 2 && outcome.waits == [0.5])
        outcome = try await run([(500, nil)], retry: .standard)
        #expect(outcome.status == 500 && outcome.attempts == 1 && outcome.waits.isEmpty)
        outcome = try await run([(503, nil)], retry: HTTPRetry(statuses: [503], attempts: 0))
        #expect(outcome.status == 503 && outcome.attempts == 1)
    }

    @Test func aSourceCannotAskForMoreThanThreeRepeats() {
        #expect(HTTPRetry(statuses: [503], attempts: 50).attempts == HTTPRetry.maximumAttempts)
        #expect(HTTPRetry(statuses: [503], attempts: -1).attempts == 0)
    }
}
