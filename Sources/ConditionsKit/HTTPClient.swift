import ConditionsJSON
import ConditionsText
import Foundation

/// What a source uses to fetch from the network; the host hands each source one through its
/// `SourceContext`, configured with that source's limits, and tests substitute their own.
///
/// ```swift
/// let response = try await context.http.get(url, headers: ["Accept": "application/json"])
/// guard response.status == 200 else { throw HTTPError.status(response.status, url: response.url) }
/// ```
public protocol HTTPClient: Sendable {
    /// Performs `request`, following redirects, and returns the final response of any status.
    /// Network failures, timeouts and oversized bodies throw `HTTPError`.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

extension HTTPClient {
    /// GETs `url` and returns the response of any status.
    public func get(_ url: URL, headers: [String: String] = [:]) async throws -> HTTPResponse {
        try await send(HTTPRequest(url: url, headers: headers))
    }
}

/// One HTTP request.
public struct HTTPRequest: Sendable {
    /// The method, `GET` by default.
    public var method: String
    /// The absolute http or https URL.
    public var url: URL
    /// Extra request headers.
    public var headers: [String: String]
    /// When the host repeats the request if the upstream briefly cannot answer (GET only).
    public var retry: HTTPRetry
    /// What a `POST` or `PUT` sends; nil: nothing.
    public var body: Data?

    /// A request for `url`, repeated as `retry` says.
    public init(method: String = "GET", url: URL, headers: [String: String] = [:], retry: HTTPRetry = .standard, body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.retry = retry
        self.body = body
    }
}

/// When the host repeats a GET whose upstream briefly could not answer: on one of `statuses`,
/// up to `attempts` more times, each after the upstream's `Retry-After` when that is at most
/// 5 s, else after a backoff that doubles from 0.5 s. A longer `Retry-After` is not waited for:
/// the response comes back as it is. A connection closed before any answer is repeated once.
///
/// ```swift
/// // NWS: 500 and 503 are often gone a moment later.
/// let request = HTTPRequest(url: url, retry: HTTPRetry(statuses: [500, 503], attempts: 2))
/// ```
public struct HTTPRetry: Sendable, Hashable {
    /// The statuses that mean "not now".
    public var statuses: Set<Int>
    /// Repeats after the first attempt, 0 to `maximumAttempts`.
    public var attempts: Int

    /// The most repeats the host makes of one request, whatever a source asks.
    public static let maximumAttempts = 3
    /// The host's default: once, on 429, 502, 503 and 504.
    public static let standard = HTTPRetry(statuses: [429, 502, 503, 504], attempts: 1)

    /// Repeats on `statuses`, at most `attempts` times (clamped to 0…`maximumAttempts`).
    public init(statuses: Set<Int>, attempts: Int) {
        self.statuses = statuses
        self.attempts = min(max(0, attempts), Self.maximumAttempts)
    }
}

/// One HTTP response.
public struct HTTPResponse: Sendable {
    /// The status code of the final response.
    public var status: Int
    /// Header fields, names lower-cased; a repeated field keeps its last value.
    public var headers: [String: String]
    /// The body, decompressed.
    public var body: Data
    /// The URL that answered, after redirects.
    public var url: URL

    /// A response; clients and test doubles make these.
    public init(status: Int, headers: [String: String] = [:], body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// Seconds the response may be reused, from `Cache-Control`: its `max-age` less the
    /// response's `Age`; 0 for `no-store` or `no-cache`; nil when it says neither.
    public var freshness: Double? { CacheControl.freshness(headers) }

    /// Throws `HTTPError.status` unless the status is 2xx.
    public func requireSuccess() throws(HTTPError) {
        guard (200..<300).contains(status) else {
            throw HTTPError.status(status, url: Redaction.redact(url), retryAfter: headers["retry-after"])
        }
    }
}

/// Limits applied to each request; the host's defaults can be overridden per source in
/// `sources.json` (`"http": {"connectTimeout": 5, "timeout": 20, "maxBodyBytes": 1048576}`).
public struct HTTPLimits: Sendable, Equatable {
    /// Seconds allowed to establish a connection.
    public var connectTimeout: Double
    /// Seconds allowed for the whole request, body included.
    public var timeout: Double
    /// The largest body accepted; larger bodies abort the transfer.
    public var maxBodyBytes: Int
    /// Redirects followed before giving up.
    public var maxRedirects: Int
    /// Connections open at once to one host.
    public var maxConnectionsPerHost: Int

    /// The defaults: 10 s to connect, 30 s in all, 16 MiB, 5 redirects, 6 connections per host.
    public init(connectTimeout: Double = 10, timeout: Double = 30, maxBodyBytes: Int = 16 << 20, maxRedirects: Int = 5, maxConnectionsPerHost: Int = 6) {
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.maxRedirects = maxRedirects
        self.maxConnectionsPerHost = maxConnectionsPerHost
    }
}

/// Why a request failed. URLs inside are already redacted.
public enum HTTPError: ReportableError, Equatable {
    /// The host name did not resolve.
    case dns(host: String)
    /// Nothing accepted the connection.
    case refused(host: String)
    /// The connection or the whole request took longer than allowed.
    case timeout(seconds: Double, url: String)
    /// The server answered with a non-2xx status.
    case status(Int, url: String, retryAfter: String? = nil)
    /// The body exceeded the limit.
    case bodyTooLarge(limit: Int, url: String)
    /// Redirected more times than allowed.
    case tooManyRedirects(url: String)
    /// The TLS handshake or certificate check failed.
    case tls(url: String, detail: String)
    /// Any other transport failure.
    case transport(url: String, detail: String)
    /// The proxy the request went through failed it. `proxy` is its host and port (never its
    /// user or password), `variable` the environment variable that named it (`http_proxy`,
    /// `HTTPS_PROXY`, `all_proxy`, …), `url` the request's.
    case proxy(proxy: String, variable: String, problem: ProxyProblem, url: String)

    /// What went wrong with a proxy.
    public enum ProxyProblem: Sendable, Equatable {
        /// Nothing accepted the connection to it.
        case refused
        /// Its host name did not resolve.
        case unresolved
        /// Connecting to it, or through it (a tunnel), took longer than `seconds`, the connect timeout.
        case timedOut(seconds: Double)
        /// It answered the request for a tunnel (`CONNECT`) with a non-2xx `status`.
        case tunnelRefused(status: Int)
        /// The variable's value is not a proxy the HTTP client can use: no host, or a scheme
        /// other than `http`, `https`, `socks4`, `socks4a`, `socks5`, `socks5h`.
        case unsupported
    }

    /// The kind in output: `network`, `timeout`, `http` or `tooLarge`. A proxy's failure is
    /// `network`, or `timeout` when connecting to it timed out.
    public var kind: ErrorKind {
        switch self {
        case .dns, .refused, .tls, .transport: .network
        case .timeout, .proxy(_, _, .timedOut, _): .timeout
        case .status, .tooManyRedirects: .http
        case .bodyTooLarge: .tooLarge
        case .proxy: .network
        }
    }

    /// One line saying what failed, with the host or the redacted URL; a proxy's failure names
    /// the proxy and its variable: "the proxy 127.0.0.1:9 (from http_proxy) refused the
    /// connection: http://example.org/data".
    public var message: String {
        switch self {
        case .dns(let host): return "could not resolve host \(host)"
        case .refused(let host): return "connection refused by \(host)"
        case .timeout(let seconds, let url): return "timed out after \(JSONValue.format(seconds)) s: \(url)"
        case .status(let code, let url, let retryAfter):
            let reason = HTTPStatusText.reasonPhrase(code)
            return "HTTP \(code)\(reason.isEmpty ? "" : " \(reason)") from \(url)" + (retryAfter.map { " (retry after \($0))" } ?? "")
        case .bodyTooLarge(let limit, let url): return "response body larger than \(limit) bytes: \(url)"
        case .tooManyRedirects(let url): return "too many redirects: \(url)"
        case .tls(let url, let detail): return "TLS failure for \(url): \(detail)"
        case .transport(let url, let detail): return "\(detail): \(url)"
        case .proxy(let proxy, let variable, let problem, let url):
            let what = switch problem {
            case .refused: "refused the connection"
            case .unresolved: "could not be resolved"
            case .timedOut(let seconds): "did not connect within \(JSONValue.format(seconds)) s"
            case .tunnelRefused(let status): "refused the tunnel with HTTP \(status)"
            case .unsupported: "cannot be used (give http://, https://, socks4://, socks4a://, socks5:// or socks5h:// and a host)"
            }
            return "the proxy \(proxy) (from \(variable)) \(what): \(url)"
        }
    }
}

/// The client used where none is configured: every request fails with a clear error.
public struct UnavailableHTTPClient: HTTPClient {
    /// Why no client is available.
    public let reason: String
    /// A client that always fails with `reason`.
    public init(reason: String) { self.reason = reason }
    /// Fails with `HTTPError.transport`, giving `reason`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw HTTPError.transport(url: Redaction.redact(request.url), detail: reason)
    }
}
