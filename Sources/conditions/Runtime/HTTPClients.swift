import ConditionsKit
import Logging

/// Makes the HTTP client each source receives, configured with that source's limits.
enum HTTPClients {
    static func make(version: String, logger: Logger) -> @Sendable (HTTPLimits) -> any HTTPClient {
        { _ in UnavailableHTTPClient(reason: "this build has no HTTP client") }
    }
}
