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
        guard request.method == .GET, request.version == .http1_1, request.uri.hasPrefix("/v1/urn/"),
              let fields = RequestFields(request.headers) else { return nil }
        let target = request.uri
        let path = URI(target).path
        // Refusals (URL too long, token missing or wrong) are Hummingbird's to answer.
        guard policy.refusal(target: target, path: path, authorization: fields.authorization) == nil,
              let answer = coordinator.remembered(API.urn(path: path)) else { return nil }
        let rendered = answer.rendered
        let status = API.status(for: answer.record)
        // The fields `API.validated` gives, in its order, made straight into NIO's type.
        var headers = HTTPHeaders()
        headers.reserveCapacity(8)
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Cache-Control", value: API.maxAge(of: answer, status: status).map { "max-age=\($0)" } ?? "no-store")
        var replyStatus = status
        if status == .ok {
            headers.add(name: "ETag", value: rendered.etag)
            if let lastModified = rendered.lastModified { headers.add(name: "Last-Modified", value: lastModified) }
            if let ifNoneMatch = fields.ifNoneMatch, HTTPCaching.matches(ifNoneMatch: ifNoneMatch, etag: rendered.etag) {
                replyStatus = .notModified
            }
        }
        let body = replyStatus == .notModified ? nil : rendered.line
        headers.add(name: "Content-Length", value: String(body?.readableBytes ?? 0))
        for (name, value) in policy.corsFields(origin: fields.origin) { headers.add(name: name.rawName, value: value) }
        headers.add(name: "Date", value: dates.current())
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: replyStatus.code, reasonPhrase: replyStatus.reasonPhrase),
                                    headers: headers)
        return Reply(head: head, body: body)
    }

    /// Counts and logs an answered request, as `FrontMiddleware` does.
    func answered(_ request: HTTPRequestHead, status: Int, started: ContinuousClock.Instant) {
        let duration = started.duration(to: .now)
        metrics.answeredOnEventLoop.increment()
        metrics.request(endpoint: "/v1/urn", status: status, duration: duration)
        logger.info("\(policy.logLine(method: request.method.rawValue, target: request.uri, status: status, duration: duration))")
    }
}

/// The request fields a remembered answer depends on, read in one pass over the head. Nil when
/// one of them comes more than once (HTTPTypes would join the values; such rare requests are
/// simply Hummingbird's) or the client asks to close the connection, which Hummingbird does.
private struct RequestFields {
    var authorization: String?
    var ifNoneMatch: String?
    var origin: String?

    init?(_ headers: HTTPHeaders) {
        for (name, value) in headers {
            switch name.utf8.count {
            case 6 where Self.named(name, "origin"):
                guard origin == nil else { return nil }
                origin = value
            case 10 where Self.named(name, "connection"):
                if value.lowercased().contains("close") { return nil }
            case 13 where Self.named(name, "authorization"):
                guard authorization == nil else { return nil }
                authorization = value
            case 13 where Self.named(name, "if-none-match"):
                guard ifNoneMatch == nil else { return nil }
                ifNoneMatch = value
            default:
                continue
            }
        }
    }

    /// Whether `name` is `lowercase` in any case (header names are ASCII tokens).
    private static func named(_ name: String, _ lowercase: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        return name.utf8.elementsEqual(expected) { given, wanted in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(given) ? given + 32 == wanted : given == wanted
        }
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
