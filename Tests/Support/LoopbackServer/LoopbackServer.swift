import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 for tests and benchmarks.
///
/// It listens on an ephemeral port, serves each connection on its own thread with keep-alive,
/// answers from registered routes or a fallback, counts what it sees, and can misbehave on
/// demand (delays, trickling, hanging, truncation, wrong lengths, endless bodies). All methods
/// are thread-safe; routes may be changed while it runs.
///
/// ```swift
/// let server = LoopbackServer()
/// server.route("/data", .json(#"{"ok":true}"#))
/// try server.start()
/// defer { server.stop() }
/// let response = try await client.get(server.url("/data"))
/// ```
public final class LoopbackServer: Sendable {
    private let core = ServerCore()

    /// A stopped server with no routes; unknown paths get 404.
    public init() {}

    deinit { core.stop() }

    /// Binds 127.0.0.1 on an ephemeral port and starts accepting connections.
    public func start() throws(StartError) {
        try core.start()
    }

    /// Closes the listener and every connection, and waits for their threads to finish.
    /// Idempotent; the port is not reused by `start()`.
    public func stop() {
        core.stop()
    }

    /// The port, once started (0 before).
    public var port: UInt16 { core.port }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { url("") }

    /// The URL of `pathAndQuery` (e.g. `/a?b=c`) on this server, reached through `host`
    /// (`localhost` makes curl treat it as a different host from `127.0.0.1`).
    public func url(_ pathAndQuery: String, host: String = "127.0.0.1") -> URL {
        guard let url = URL(string: "http://\(host):\(port)\(pathAndQuery)") else {
            preconditionFailure("not a path and query: \(pathAndQuery)")
        }
        return url
    }

    /// Answers requests for `path` (query ignored) with `response`.
    public func route(_ path: String, _ response: Response) {
        core.setRoute(path) { _ in response }
    }

    /// Answers requests for `path` (query ignored) with whatever `handler` returns; it runs on
    /// the connection's thread, possibly for several connections at once.
    public func route(_ path: String, handler: @escaping @Sendable (Request) -> Response) {
        core.setRoute(path, handler)
    }

    /// Answers requests no route matches; the default answers 404.
    public func fallback(_ handler: @escaping @Sendable (Request) -> Response) {
        core.setFallback(handler)
    }

    /// Registers `hops` redirects: `path` → `path/1` → … → `path/<hops-1>` → `target`, where
    /// `target` is a path on this server or an absolute URL.
    public func redirectChain(from path: String, hops: Int, to target: String) {
        for hop in 0..<hops {
            let source = hop == 0 ? path : "\(path)/\(hop)"
            let next = hop == hops - 1 ? target : "\(path)/\(hop + 1)"
            route(source, .redirect(to: next))
        }
    }

    /// The counters now.
    public var stats: Stats { core.stats }

    /// Requests received for `path` so far.
    public func requestCount(_ path: String) -> Int { core.stats.requestsPerPath[path, default: 0] }

    /// Every request received so far, oldest first.
    public var requests: [Request] { core.requests }

    /// Zeroes the counters (keeping the open-connection count) and forgets received requests.
    public func resetStats() { core.resetStats() }
}
