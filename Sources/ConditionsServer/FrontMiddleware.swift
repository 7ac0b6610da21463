import ConditionsCore
import Crypto
import Foundation
import Hummingbird
import Logging

/// What every request passes first: the URL limit, authentication, CORS, one-line JSON errors,
/// the request's metrics and its log line.
struct FrontMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let settings: ServerSettings
    let metrics: ServerMetrics
    let logger: Logger
    let secrets: Set<String>
    /// The token's digest: comparing digests of equal length in constant time reveals
    /// neither the token's bytes nor its length through timing.
    private let tokenDigest: [UInt8]?

    init(settings: ServerSettings, metrics: ServerMetrics, logger: Logger, secrets: Set<String>) {
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        self.secrets = secrets.union(settings.token.map { [$0] } ?? [])
        tokenDigest = settings.token.map { Array(SHA256.hash(data: Array($0.utf8))) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var response: Response
        do {
            response = try await checked(request, context: context, next: next)
        } catch let error as API.RequestError {
            response = API.errorResponse(status: error.status, kind: error.kind, message: error.message)
        } catch let error as HTTPError {
            let kind = switch error.status {
            case .notFound: "notFound"
            case .contentTooLarge: "tooLarge"
            case .methodNotAllowed: "methodNotAllowed"
            default: "invalidRequest"
            }
            let message = error.status == .contentTooLarge
                ? "request body over \(ServerSettings.maximumBodyBytes) bytes"
                : (error.body ?? error.status.reasonPhrase)
            response = API.errorResponse(status: error.status, kind: kind, message: message)
        } catch {
            response = API.errorResponse(status: .internalServerError, kind: "internal", message: "internal error")
        }
        addCORS(to: &response, request: request)
        let duration = started.duration(to: .now)
        let endpoint = Self.endpoint(request.uri.path)
        metrics.request(endpoint: endpoint, status: response.status.code, duration: duration)
        logger.info("\(request.method.rawValue) \(redacted(request.uri.string)) \(response.status.code) \(duration.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 1))))")
        return response
    }

    private func checked(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.string.utf8.count <= ServerSettings.maximumURLBytes else {
            throw API.RequestError(status: .uriTooLong, kind: "tooLarge", message: "request URL over \(ServerSettings.maximumURLBytes) bytes")
        }
        if request.method == .options, !settings.cors.isEmpty {
            // A CORS preflight carries no credentials by design; it reveals nothing.
            return Response(status: .noContent)
        }
        if let tokenDigest, request.uri.path != "/healthz" {
            guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") else {
                throw API.RequestError(status: .unauthorized, kind: "unauthorized", message: "send Authorization: Bearer <token>")
            }
            let given = Array(SHA256.hash(data: Array(authorization.dropFirst("Bearer ".count).utf8)))
            guard zip(given, tokenDigest).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else {
                throw API.RequestError(status: .unauthorized, kind: "unauthorized", message: "wrong token")
            }
        }
        return try await next(request, context)
    }

    private func addCORS(to response: inout Response, request: Request) {
        guard !settings.cors.isEmpty, let origin = request.headers[.origin] else { return }
        if settings.cors.contains("*") {
            response.headers[.accessControlAllowOrigin] = "*"
        } else if settings.cors.contains(origin) {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.vary] = "Origin"
        } else {
            return
        }
        response.headers[.accessControlAllowHeaders] = "Authorization, Accept, Content-Type, If-None-Match"
        response.headers[.accessControlAllowMethods] = "GET, POST, OPTIONS"
        response.headers[.accessControlExposeHeaders] = "ETag, Last-Modified, Cache-Control"
    }

    /// The path and query with every secret masked (a token pasted into a URL included).
    private func redacted(_ text: String) -> String {
        LogSetup.redact(secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "****") })
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
