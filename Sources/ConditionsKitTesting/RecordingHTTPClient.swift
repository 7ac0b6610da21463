import ConditionsJSON
import ConditionsKit
import Foundation
import Synchronization

/// An `HTTPClient` for tests: answers each request from a script of canned replies and
/// records every request it was sent, in the order sent. Safe to share between tasks.
///
/// The script is one of: the same reply for every request; replies by URL or path; replies in
/// order; or a closure. A reply may be a response, an `HTTPError` thrown as the host's client
/// throws it, or a real client the request is passed on to.
///
/// ```swift
/// let http = RecordingHTTPClient([
///     "https://api.example.org/v1/stations?id=7": .json(#"{"name": "Harbor 7"}"#),  // the whole URL
///     "/v1/tides": .text("rate limited", status: 429),                              // any host, any query
///     "/v1/slow": .failure(.timeout(seconds: 30, url: "https://api.example.org/v1/slow")),
/// ])
/// // … resolve with `SourceContextBuilder(http: http).build()` …
/// #expect(http.requests.map(\.url.path) == ["/v1/stations", "/v1/tides"])
/// #expect(http.requests.first?.headers["Accept"] == "application/json")
/// ```
public final class RecordingHTTPClient: HTTPClient {
    /// How the client answers one request.
    public struct Reply: Sendable {
        fileprivate enum Answer: Sendable {
            case response(status: Int, headers: [String: String], body: Data)
            case failure(HTTPError)
            case answer(@Sendable (HTTPRequest) async throws -> HTTPResponse)
        }

        fileprivate let answer: Answer

        /// A response with `status`, `headers` and `body`; header names are lower-cased, as
        /// the host's client gives them (`HTTPResponse.headers`).
        public static func response(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) -> Reply {
            Reply(answer: .response(status: status, headers: Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { $1 }, body: body))
        }

        /// `body` with `status` and, when given, a `Content-Type`.
        public static func body(_ body: Data, status: Int = 200, contentType: String? = nil) -> Reply {
            .response(status: status, headers: contentType.map { ["content-type": $0] } ?? [:], body: body)
        }

        /// `text` as UTF-8 with `status` and `contentType`.
        public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Reply {
            .body(Data(text.utf8), status: status, contentType: contentType)
        }

        /// A JSON document as written, with `status` and `contentType`.
        public static func json(_ text: String, status: Int = 200, contentType: String = "application/json") -> Reply {
            .text(text, status: status, contentType: contentType)
        }

        /// A JSON value, serialized, with `status` and `contentType`.
        public static func json(_ value: JSONValue, status: Int = 200, contentType: String = "application/json") -> Reply {
            .text(value.serialized(), status: status, contentType: contentType)
        }

        /// `status` with an empty body.
        public static func status(_ status: Int) -> Reply {
            .response(status: status)
        }

        /// Throws `error`, as the host's client does for a network failure, a timeout or an oversized body.
        public static func failure(_ error: HTTPError) -> Reply {
            Reply(answer: .failure(error))
        }

        /// Passes the request on to `client` (a real one, or another double) and returns its answer.
        public static func delegate(to client: any HTTPClient) -> Reply {
            Reply(answer: .answer { try await client.send($0) })
        }

        /// Whatever `answer` returns or throws for the request.
        public static func answer(_ answer: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) -> Reply {
            Reply(answer: .answer(answer))
        }

        /// Not found: 404 naming the URL no reply was scripted for.
        public static let notFound = Reply.answer { request in
            HTTPResponse(status: 404, headers: ["content-type": "text/plain; charset=utf-8"],
                         body: Data("RecordingHTTPClient: no reply for \(request.url.absoluteString)".utf8), url: request.url)
        }

        fileprivate func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            switch answer {
            case .response(let status, let headers, let body): return HTTPResponse(status: status, headers: headers, body: body, url: request.url)
            case .failure(let error): throw error
            case .answer(let answer): return try await answer(request)
            }
        }
    }

    private enum Script: Sendable {
        case always(Reply)
        case byURL([String: Reply], fallback: Reply)
        case inOrder([Reply], then: Reply)
    }

    private struct State {
        var requests: [HTTPRequest] = []
        var answered = 0
    }

    private let script: Script
    private let state = Mutex(State())

    /// Answers every request with `reply`.
    public init(_ reply: Reply) {
        script = .always(reply)
    }

    /// Answers by URL: a key is a whole URL (`https://host/path?query`, compared as written)
    /// or, starting with `/`, a path with or without its query (`/path?query`, `/path`),
    /// matched on any host. The whole URL wins, then the path with its query, then the path.
    /// A request no key matches gets `fallback`: by default 404 naming the URL.
    public init(_ replies: [String: Reply], fallback: Reply = .notFound) {
        script = .byURL(replies, fallback: fallback)
    }

    /// Answers the requests in the order they arrive with `replies`, one each; once they are
    /// used up, every further request gets `then`: by default a transport failure saying so.
    public init(inOrder replies: [Reply], then: Reply? = nil) {
        script = .inOrder(replies, then: then ?? .answer { request in
            throw HTTPError.transport(url: request.url.absoluteString, detail: "RecordingHTTPClient: the \(replies.count) scripted replies are used up")
        })
    }

    /// Passes every request on to `client` (the host's libcurl client, a loopback server's
    /// URL), recording it first.
    public convenience init(delegatingTo client: any HTTPClient) {
        self.init(.delegate(to: client))
    }

    /// Answers every request with whatever `answer` returns or throws.
    public convenience init(_ answer: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.init(.answer(answer))
    }

    /// Every request sent so far, in the order sent (a reply that failed included).
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// The URLs of `requests`.
    public var urls: [URL] { requests.map(\.url) }

    /// The requests sent so far whose URL path is `path`.
    public func requests(to path: String) -> [HTTPRequest] {
        requests.filter { $0.url.path == path }
    }

    /// Forgets the requests recorded so far and starts an in-order script again.
    public func reset() {
        state.withLock { $0 = State() }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let index = state.withLock { state in
            state.requests.append(request)
            defer { state.answered += 1 }
            return state.answered
        }
        return try await reply(to: request, index: index).send(request)
    }

    private func reply(to request: HTTPRequest, index: Int) -> Reply {
        switch script {
        case .always(let reply):
            return reply
        case .inOrder(let replies, let then):
            return index < replies.count ? replies[index] : then
        case .byURL(let replies, let fallback):
            let url = request.url
            let path = url.path.isEmpty ? "/" : url.path
            let keys = [url.absoluteString, url.query.map { "\(path)?\($0)" }, path].compactMap { $0 }
            return keys.lazy.compactMap { replies[$0] }.first ?? fallback
        }
    }
}
