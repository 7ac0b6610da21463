import ConditionsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// The answers `CachedAnswerHandler` gives on the event loop, without Hummingbird: a
/// `GET /v1/urn/{urn}` whose result memory holds while fresh. Each one is the response
/// `FrontMiddleware` and `API.single` would give (same status, headers and bytes; tested by
/// `CachedAnswerTests`), counted and logged the same way. Anything else, or anything that
/// would need waiting, is left to Hummingbird.
///
/// In NIO's HTTP/1 types, not HTTPTypes: the handler sits before the HTTPTypes codec, so a
/// remembered answer skips converting the request head and the response head (scenario 9,
/// docs/performance.md "Issue 45" §3).
struct CachedAnswers: Sendable {
    /// A response ready to write.
    struct Reply {
        var head: HTTPResponseHead
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
    func reply(to request: HTTPRequestHead) -> Reply? {
        // HTTP/1.0 and `Connection: close` end the connection after the answer: Hummingbird's.
        guard request.method == .GET, request.version == .http1_1, request.isKeepAlive, request.uri.hasPrefix("/v1/urn/") else { return nil }
        let target = request.uri
        let path = URI(target).path
        // Refusals (URL too long, token missing or wrong) are Hummingbird's to answer.
        guard policy.refusal(target: target, path: path, authorization: Self.field("Authorization", of: request)) == nil,
              let answer = coordinator.remembered(API.urn(path: path)) else { return nil }
        let rendered = answer.rendered
        let status = API.status(for: answer.record)
        var (replyStatus, headers) = API.validated(etag: rendered.etag, contentType: "application/json", status: status,
                                                   maxAge: API.maxAge(of: answer, status: status), lastModified: rendered.lastModified,
                                                   ifNoneMatch: Self.field("If-None-Match", of: request), as: HTTPHeaders.self)
        let body = replyStatus == .notModified ? nil : rendered.line
        headers.append(.contentLength, String(body?.readableBytes ?? 0))
        for (name, value) in policy.corsFields(origin: Self.field("Origin", of: request)) { headers.append(name, value) }
        headers.append(.date, dates.current())
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: replyStatus.code, reasonPhrase: replyStatus.reasonPhrase),
                                    headers: headers)
        return Reply(head: head, body: body)
    }

    /// A request field as HTTPTypes reads it (repeated values joined by ", "); nil if absent.
    private static func field(_ name: String, of request: HTTPRequestHead) -> String? {
        let values = request.headers[name]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Counts and logs an answered request, as `FrontMiddleware` does.
    func answered(_ request: HTTPRequestHead, status: Int, started: ContinuousClock.Instant) {
        let duration = started.duration(to: .now)
        metrics.answeredOnEventLoop.increment()
        metrics.request(endpoint: "/v1/urn", status: status, duration: duration)
        logger.info("\(policy.logLine(method: request.method.rawValue, target: request.uri, status: status, duration: duration))")
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
