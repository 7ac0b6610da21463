import ConditionsHTTP
import ConditionsKit
import Logging
import Synchronization

/// Makes the HTTP client each source receives: one libcurl client per process (one
/// connection pool, keep-alive across a report and across `watch` polls), viewed through each
/// source's limits, with identical requests of one run shared and a GET the upstream
/// briefly cannot answer retried once (`RetryingHTTPClient`).
package enum HTTPClients {
    /// Created on the first request, so a report that touches no network source never starts
    /// libcurl (whose TLS set-up alone cost a local answer ~2 ms and ~2 MiB).
    private static let shared = Mutex<CurlHTTPClient?>(nil)

    /// A factory for one run: call it with a source's limits to get that source's client.
    package static func make(version: String, logger: Logger) -> @Sendable (HTTPLimits) -> any HTTPClient {
        let views = Mutex<[(HTTPLimits, CoalescingHTTPClient)]>([])
        return { limits in
            views.withLock { views in
                if let existing = views.first(where: { $0.0 == limits }) { return existing.1 }
                let view = CoalescingHTTPClient(base: DeferredHTTPClient { base(version: version, limits: limits, logger: logger) }, logger: logger)
                views.append((limits, view))
                return view
            }
        }
    }

    /// Each source's limits over the process's libcurl client, retried, nothing shared: what
    /// a long-lived process's `UpstreamDocuments` fetches through (it shares for itself, and a
    /// run's request sharing would keep every answer for as long as it lives).
    package static func direct(version: String, logger: Logger) -> @Sendable (HTTPLimits) -> any HTTPClient {
        let views = Mutex<[(HTTPLimits, DeferredHTTPClient)]>([])
        return { limits in
            views.withLock { views in
                if let existing = views.first(where: { $0.0 == limits }) { return existing.1 }
                let view = DeferredHTTPClient { base(version: version, limits: limits, logger: logger) }
                views.append((limits, view))
                return view
            }
        }
    }

    private static func base(version: String, limits: HTTPLimits, logger: Logger) -> any HTTPClient {
        shared.withLock { client -> any HTTPClient in
            if client == nil {
                do {
                    client = try CurlHTTPClient(version: version, limits: HTTPLimits(maxConnectionsPerHost: limits.maxConnectionsPerHost))
                } catch {
                    logger.error("HTTP client unavailable: \(error)")
                    return UnavailableHTTPClient(reason: "the HTTP client could not start: \(error)")
                }
            }
            guard let client else { return UnavailableHTTPClient(reason: "no HTTP client") }
            return RetryingHTTPClient(base: client.limited(limits), logger: logger)
        }
    }
}

/// Makes its client on the first request: every URN's context carries an HTTP client, but
/// only network sources ever send.
final class DeferredHTTPClient: HTTPClient {
    private let make: @Sendable () -> any HTTPClient
    private let client = Mutex<(any HTTPClient)?>(nil)

    init(_ make: @escaping @Sendable () -> any HTTPClient) { self.make = make }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let base = client.withLock { client in
            if let client { return client }
            let made = make()
            client = made
            return made
        }
        return try await base.send(request)
    }
}
