import ConditionsKit
import Foundation
import Synchronization

/// A request handed from an awaiting task to the loop thread, with everything needed to run
/// it and to answer the task.
struct Submission: Sendable {
    let request: HTTPRequest
    let limits: HTTPLimits
    let userAgent: String
    let proxies: ProxySettings
    let ticket: CancellationTicket
    let continuation: CheckedContinuation<HTTPResponse, any Error>

    /// Requests to the same scheme, host and port share a connection limit.
    var hostKey: String {
        let scheme = request.url.scheme?.lowercased() ?? ""
        let host = request.url.host?.lowercased() ?? ""
        let port = request.url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// Answers the awaiting task; the loop calls this exactly once per submission.
    func resume(with result: Result<HTTPResponse, any Error>) {
        continuation.resume(with: result)
    }
}

/// Marks one request as cancelled, from whichever thread notices first.
///
/// The cancellation handler may run before the loop has even seen the submission, so the loop
/// checks the ticket when it starts a transfer as well as acting on the cancel message.
final class CancellationTicket: Sendable {
    let id: UInt64
    private let cancelled = Atomic<Bool>(false)

    init(id: UInt64) { self.id = id }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() { cancelled.store(true, ordering: .releasing) }
}
