import ConditionsKit
import ConditionsText
import Foundation
import Logging
import Synchronization

/// Request sharing (docs/caching.md): one fetch for identical GET requests made during one
/// run, in flight or done, so two URNs that need the same upstream document (one feed
/// answering many URNs, say) cost one request.
final class CoalescingHTTPClient: HTTPClient {
    private let base: any HTTPClient
    private let logger: Logger
    private let inFlight = Mutex<[String: Task<HTTPResponse, any Error>]>([:])

    init(base: any HTTPClient, logger: Logger) {
        self.base = base
        self.logger = logger
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == "GET" else { return try await base.send(request) }
        let key = request.identity
        let task = inFlight.withLock { tasks in
            if let existing = tasks[key] { return existing }
            let base = self.base
            let logger = self.logger
            let task = Task {
                let started = ContinuousClock.now
                let shown = Redaction.redact(request.url)
                logger.debug("GET \(shown)")
                do {
                    let response = try await base.send(request)
                    logger.debug("HTTP \(response.status), \(response.body.count) bytes in \(started.duration(to: .now).formatted(.units(allowed: [.milliseconds]))): \(shown)")
                    return response
                } catch {
                    logger.debug("failed after \(started.duration(to: .now).formatted(.units(allowed: [.milliseconds]))): \(shown): \(ConditionsError.report(error).message)")
                    throw error
                }
            }
            tasks[key] = task
            return task
        }
        // Not cancelled with one caller: others may share it, and it ends on its own limits.
        return try await task.value
    }
}
