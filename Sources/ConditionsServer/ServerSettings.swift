import ConditionsCore
import Foundation

/// What `conditions serve` was asked for, after the command line, the environment and the
/// config's `"serve"` object are combined (command line first).
package struct ServerSettings: Sendable {
    /// Where to listen.
    package var listen: ListenAddress
    /// The bearer token every request but `/healthz` must carry; nil: no authentication.
    package var token: String?
    /// Origins allowed by CORS; empty: no CORS headers.
    package var cors: [String]
    /// Longest graceful shutdown: in-flight requests still running after it are dropped.
    package var shutdownGrace: Duration = .seconds(10)
    /// A connection idle this long, or this slow to send a request, is closed
    /// (`"serve": {"idleTimeout"}`).
    package var idleTimeout: Duration = .seconds(30)
    /// How many fresh results the server keeps in memory.
    package var memoryCache = ResultCoordinator.Limits.standard

    /// At most this many URNs in one `/v1/resolve` request.
    package static let maximumURNs = 100
    /// Longest request target (path and query).
    package static let maximumURLBytes = 8 * 1024
    /// Largest request body.
    package static let maximumBodyBytes = 64 * 1024

    /// Settings as given.
    package init(listen: ListenAddress, token: String?, cors: [String]) {
        self.listen = listen
        self.token = token
        self.cors = cors
    }

    /// Combines the sources of settings and applies the security rule: off loopback, a token
    /// or an explicit `noAuth` is required. Returns the settings and a warning to print, if any.
    package static func resolve(listen: String?, token: String?, noAuth: Bool, configured: Configuration.ServeSettings,
                                environment: [String: String]) throws(ConfigurationError) -> (settings: ServerSettings, warning: String?) {
        let expanded = try configured.interpolated(environment: environment).settings
        let text = listen ?? expanded.listen ?? "127.0.0.1:8080"
        guard let address = ListenAddress(text) else {
            throw ConfigurationError(problems: ["--listen: \"\(text)\" is not host:port (e.g. 127.0.0.1:8080, [::1]:8080, 0.0.0.0:80)"])
        }
        let environmentToken = environment["CONDITIONS_SERVE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let chosenToken = noAuth ? nil : (token ?? environmentToken ?? expanded.token)
        if let chosenToken, chosenToken.utf8.count < 16 {
            throw ConfigurationError(problems: ["the serve token is shorter than 16 characters; use a long random one (e.g. openssl rand -hex 32)"])
        }
        var warning: String?
        if !address.isLoopback, chosenToken == nil {
            guard noAuth else {
                throw ConfigurationError(problems: ["listening on \(address) (not loopback) needs a token: --token, CONDITIONS_SERVE_TOKEN or \"serve\": {\"token\": \"${…}\"}; or pass --no-auth to serve anyone who can connect"])
            }
            warning = "warning: --no-auth: anyone who can reach \(address) can use this server"
        }
        var settings = ServerSettings(listen: address, token: chosenToken, cors: expanded.cors)
        if let idle = expanded.idleTimeout { settings.idleTimeout = .milliseconds(Int64(idle * 1000)) }
        settings.memoryCache = ResultCoordinator.Limits(entries: expanded.cacheEntries ?? ResultCoordinator.Limits.standard.entries,
                                                        bytes: expanded.cacheBytes ?? ResultCoordinator.Limits.standard.bytes)
        return (settings, warning)
    }
}
