import ConditionsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The answers `CachedAnswerHandler` gives on the event loop, without Hummingbird: a
/// `GET /v1/urn/{urn}` whose result memory holds while fresh. Each one is the response
/// `FrontMiddleware` and `API.single` would give (same status, headers and bytes; tested by
/// `CachedAnswerTests`), counted and logged the same way. Anything else, or anything that
/// would need waiting, is left to Hummingbird.
struct CachedAnswers: Sendable {
    /// A response ready to write.
    struct Reply {
        var head: HTTPResponse
        /// Nil for a 304.
        var body: ByteBuffer?
    }

    let coordinator: ResultCoordinator
    let policy: RequestPolicy
    let metrics: ServerMetrics
    let logger: Logger
    private let dates = DateHeader()

    init(coordinator: ResultCoordinator, policy: RequestPolicy, metrics: ServerMetrics, logger: Logger) {
        self.coordinator = coordinator
        self.policy = policy
        self.metrics = metrics
        self.logger = logger
    }

    /// The reply to `request` if memory answers it; nil to leave it to Hummingbird.
    func reply(to request: HTTPRequest) -> Reply? {
        guard request.method == .get, let target = request.path, target.hasPrefix("/v1/urn/") else { return nil }
        let fields = request.headerFields
        // Hummingbird closes the connection after such a request; leave that to it.
        if let connection = fields[.connection], connection.lowercased().contains("close") { return nil }
        let path = URI(target).path
        // Refusals (URL too long, token missing or wrong) are Hummingbird's to answer.
        guard policy.refusal(target: target, path: path, authorization: fields[.authorization]) == nil,
              let answer = coordinator.remembered(API.urn(path: path)) else { return nil }
        let rendered = answer.rendered
        let status = API.status(for: answer.record)
        let (replyStatus, headersMade) = API.validated(etag: rendered.etag, contentType: "application/json", status: status,
                                                   maxAge: API.maxAge(of: answer, status: status), lastModified: rendered.lastModified,
                                                   ifNoneMatch: fields[.ifNoneMatch])
        var headers = headersMade
        let body = replyStatus == .notModified ? nil : rendered.line
        headers[.contentLength] = String(body?.readableBytes ?? 0)
        policy.addCORS(to: &headers, origin: fields[.origin])
        headers[.date] = dates.current()
        return Reply(head: HTTPResponse(status: replyStatus, headerFields: headers), body: body)
    }

    /// Counts and logs an answered request, as `FrontMiddleware` does.
    func answered(_ request: HTTPRequest, status: Int, started: ContinuousClock.Instant) {
        let duration = started.duration(to: .now)
        metrics.answeredOnEventLoop.increment()
        metrics.request(endpoint: "/v1/urn", status: status, duration: duration)
        logger.info("\(policy.logLine(method: request.method, target: request.path ?? "", status: status, duration: duration))")
    }
}

/// The `Date` header's value, made once per second of the wall clock.
private final class DateHeader: Sendable {
    private let cached = Mutex<(second: Int, text: String)>((Int.min, ""))

    func current() -> String {
        let now = Date()
        let second = Int(now.timeIntervalSince1970.rounded(.down))
        return cached.withLock { cached in
            if cached.second != second { cached = (second, HTTPCaching.httpDate(now)) }
            return cached.text
        }
    }
}
