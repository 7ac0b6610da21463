import ConditionsKit
import ConditionsText
import Foundation

/// The network `HTTPClient`, built on libcurl.
///
/// All requests of a client and of the views made by `limited(_:)` share one curl multi handle
/// driven by one background thread, so many requests can be in flight without a thread each and
/// connections to a host are kept alive and reused. Requests to one host run at most
/// `maxConnectionsPerHost` at a time (the rest wait their turn); different hosts never wait for
/// each other.
///
/// ```swift
/// let http = try CurlHTTPClient(version: "1.0")
/// let response = try await http.get(url, headers: ["Accept": "application/json"])
/// try response.requireSuccess()
/// ```
public final class CurlHTTPClient: HTTPClient {
    private let owner: EngineOwner
    private let userAgent: String
    private let proxies: ProxySettings

    /// The `HTTPError.transport` detail for a connection closed before any byte of response:
    /// the one transport failure after which repeating a GET is known to be safe.
    public static let closedWithoutAnswer = "the server closed the connection without answering"

    /// The limits this client applies to each request.
    public let limits: HTTPLimits

    /// Starts a client whose requests identify as `conditions/<version>` and obey `limits`.
    /// `limits.maxConnectionsPerHost` also caps the shared connection pool for every view.
    /// The first client loads libcurl (`libcurl.so.4`, opened at run time rather than linked).
    /// Throws `ConditionsError` of kind `internal` if libcurl cannot be loaded or initialise,
    /// with a message such as "libcurl could not be loaded: libcurl.so.4: cannot open shared object file…".
    ///
    /// Requests go through the proxies `proxies` chooses, by default those of this process's
    /// environment (`http_proxy`, `https_proxy`, `all_proxy`, `no_proxy`, read now, once);
    /// an error a proxy causes names it and its variable (`HTTPError.proxy`).
    public convenience init(version: String, limits: HTTPLimits = HTTPLimits(), proxies: ProxySettings = .fromEnvironment()) throws {
        let engine = try CurlEngine(maxConnectionsPerHost: limits.maxConnectionsPerHost)
        self.init(owner: EngineOwner(engine), userAgent: "conditions/\(version)", proxies: proxies, limits: limits)
    }

    private init(owner: EngineOwner, userAgent: String, proxies: ProxySettings, limits: HTTPLimits) {
        self.owner = owner
        self.userAgent = userAgent
        self.proxies = proxies
        self.limits = limits
    }

    /// A client sharing this one's connections and thread but applying `limits` instead, for a
    /// source with its own timeouts or size cap. Its `maxConnectionsPerHost` can lower, not
    /// raise, the number of its requests in flight to one host.
    public func limited(_ limits: HTTPLimits) -> any HTTPClient {
        CurlHTTPClient(owner: owner, userAgent: userAgent, proxies: proxies, limits: limits)
    }

    /// Performs `request`, following redirects, and returns the final response of any status.
    ///
    /// Throws `HTTPError` for network failures, timeouts, oversized bodies and too many
    /// redirects, and `CancellationError` if the calling task is cancelled (the transfer stops).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Self.validate(request)
        let engine = owner.engine
        let ticket = engine.makeTicket()
        let limits = limits
        let userAgent = userAgent
        let proxies = proxies
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                engine.submit(Submission(request: request, limits: limits, userAgent: userAgent, proxies: proxies, ticket: ticket, continuation: continuation))
            }
        } onCancel: {
            engine.cancel(ticket)
        }
    }

    /// Stops the background thread now, failing requests in flight with `HTTPError.transport`;
    /// later requests fail the same way. Affects every view sharing this client's connections.
    /// Dropping the last reference to the client and its views does the same.
    public func shutdown() {
        owner.engine.shutdown()
    }

    /// Rejects what curl must never see: other schemes, and header text that would inject lines.
    private static func validate(_ request: HTTPRequest) throws(HTTPError) {
        let url = Redaction.redact(request.url)
        let scheme = request.url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw .transport(url: url, detail: "unsupported URL scheme \"\(scheme)\"")
        }
        guard let host = request.url.host, !host.isEmpty else {
            throw .transport(url: url, detail: "URL has no host")
        }
        let method = request.method
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter || $0 == "-" }) else {
            throw .transport(url: url, detail: "invalid HTTP method")
        }
        for (name, value) in request.headers {
            let badName = name.isEmpty || name.contains { $0 == ":" || $0.isWhitespace || $0.isNewline }
            guard !badName, !value.contains(where: \.isNewline) else {
                throw .transport(url: url, detail: "invalid header field \"\(Redaction.isSensitive(name) ? Redaction.mask : name)\"")
            }
        }
    }
}

/// Shuts the engine down when the last client or view using it goes away.
private final class EngineOwner: Sendable {
    let engine: CurlEngine
    init(_ engine: CurlEngine) { self.engine = engine }
    deinit { engine.shutdown() }
}
