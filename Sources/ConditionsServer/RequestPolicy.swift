import ConditionsCore
import ConditionsKit
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The rules a request meets whichever path answers it, Hummingbird's router
/// (`FrontMiddleware`) or the cached-answer handler below it (`CachedAnswerHandler`): the URL
/// limit, the bearer token, CORS headers, the metrics label and the redacted log line.
struct RequestPolicy: Sendable {
    let settings: ServerSettings
    /// Values never to log: the config's secrets and the token.
    let secrets: Set<String>
    /// The token's digest: comparing digests of equal length in constant time reveals
    /// neither the token's bytes nor its length through timing.
    private let tokenDigest: [UInt8]?

    init(settings: ServerSettings, secrets: Set<String>) {
        self.settings = settings
        self.secrets = secrets.union(settings.token.map { [$0] } ?? [])
        tokenDigest = settings.token.map { Array(SHA256.hash(data: Array($0.utf8))) }
    }

    /// Why a request is refused before it is routed (URL too long, missing or wrong token),
    /// or nil. `target` is the path with its query; `path` without it.
    func refusal(target: String, path: String, authorization: String?) -> API.RequestError? {
        guard target.utf8.count <= ServerSettings.maximumURLBytes else {
            return API.RequestError(status: .uriTooLong, kind: .tooLarge, message: "request URL over \(ServerSettings.maximumURLBytes) bytes")
        }
        guard let tokenDigest, path != "/healthz" else { return nil }
        guard let authorization, authorization.hasPrefix("Bearer ") else {
            return API.RequestError(status: .unauthorized, kind: .unauthorized, message: "send Authorization: Bearer <token>")
        }
        let given = Array(SHA256.hash(data: Array(authorization.dropFirst("Bearer ".count).utf8)))
        guard zip(given, tokenDigest).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else {
            return API.RequestError(status: .unauthorized, kind: .unauthorized, message: "wrong token")
        }
        return nil
    }

    /// Adds the CORS headers a response to a request from `origin` carries, if any.
    func addCORS(to headers: inout HTTPFields, origin: String?) {
        for (name, value) in corsFields(origin: origin) { headers[name] = value }
    }

    /// The CORS headers a response to a request from `origin` carries, in order; none if
    /// CORS is off, the request names no origin or its origin is not allowed.
    func corsFields(origin: String?) -> [(HTTPField.Name, String)] {
        guard !settings.cors.isEmpty, let origin else { return [] }
        var fields: [(HTTPField.Name, String)]
        if settings.cors.contains("*") {
            fields = [(.accessControlAllowOrigin, "*")]
        } else if settings.cors.contains(origin) {
            fields = [(.accessControlAllowOrigin, origin), (.vary, "Origin")]
        } else {
            return []
        }
        fields.append((.accessControlAllowHeaders, "Authorization, Accept, Content-Type, If-None-Match"))
        fields.append((.accessControlAllowMethods, "GET, POST, OPTIONS"))
        fields.append((.accessControlExposeHeaders, "ETag, Last-Modified, Cache-Control"))
        return fields
    }

    /// The `-v` log line of an answered request: method, target with every secret masked (a
    /// token pasted into a URL included), status and duration.
    func logLine(method: String, target: String, status: Int, duration: Duration) -> String {
        let redacted = LogSetup.redact(secrets.reduce(target) { $0.replacingOccurrences(of: $1, with: "****") })
        return "\(method) \(redacted) \(status) \(duration.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 1))))"
    }

    /// A fixed label per endpoint, never the path itself, so clients cannot grow the metrics.
    static func endpoint(_ path: String) -> String {
        if path.hasPrefix("/v1/urn/") { return "/v1/urn" }
        switch path {
        case "/v1/resolve", "/v1/routes", "/v1/sources", "/v1/events", "/v1/openapi.json", "/healthz", "/readyz", "/metrics", "/", "/card": return path
        case "/assets/dashboard.css", "/assets/dashboard.js": return "/assets"
        default: return "other"
        }
    }
}
