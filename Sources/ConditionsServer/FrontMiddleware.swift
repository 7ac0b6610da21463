import ConditionsCore
import ConditionsKit
import Foundation
import Hummingbird
import Logging

/// What every request Hummingbird routes passes first: the `RequestPolicy` (URL limit,
/// authentication, CORS), one-line JSON errors (405 with `Allow` for a known path's unknown
/// method), the request's metrics and its log line.
struct FrontMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let policy: RequestPolicy
    let allowed: AllowedMethods
    let metrics: ServerMetrics
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var response: Response
        do {
            response = try await checked(request, context: context, next: next)
        } catch let error as API.RequestError {
            response = API.errorResponse(status: error.status, kind: error.kind, message: error.message)
        } catch let error as Hummingbird.HTTPError {
            // The router says 404 also when the path has routes, only none for this method.
            let methods = error.status == .notFound ? allowed.methods(for: request.uri.path) : []
            if !methods.isEmpty {
                let list = methods.map(\.rawValue).joined(separator: ", ")
                response = API.errorResponse(status: .methodNotAllowed, kind: .methodNotAllowed,
                                             message: "\(request.method.rawValue) is not allowed on this path; it answers \(list)", headers: [.allow: list])
            } else {
                let kind = switch error.status {
                case .notFound: ErrorKind.notFound.rawValue
                case .contentTooLarge: ErrorKind.tooLarge.rawValue
                case .methodNotAllowed: API.RequestKind.methodNotAllowed.rawValue
                default: API.RequestKind.invalidRequest.rawValue
                }
                let message = error.status == .contentTooLarge
                    ? "request body over \(ServerSettings.maximumBodyBytes) bytes"
                    : (error.body ?? error.status.reasonPhrase)
                response = API.errorResponse(status: error.status, kind: kind, message: message)
            }
        } catch {
            response = API.errorResponse(status: .internalServerError, kind: .internal, message: "internal error")
        }
        policy.addCORS(to: &response.headers, origin: request.headers[.origin])
        let duration = started.duration(to: .now)
        metrics.request(endpoint: RequestPolicy.endpoint(request.uri.path), status: response.status.code, duration: duration)
        logger.info("\(policy.logLine(method: request.method.rawValue, target: request.uri.string, status: response.status.code, duration: duration))")
        return response
    }

    private func checked(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.string.utf8.count <= ServerSettings.maximumURLBytes, request.method == .options, !policy.settings.cors.isEmpty {
            // A CORS preflight carries no credentials by design; it reveals nothing.
            let methods = allowed.methods(for: request.uri.path)
            return Response(status: .noContent, headers: methods.isEmpty ? [:] : [.allow: methods.map(\.rawValue).joined(separator: ", ")])
        }
        if let refusal = policy.refusal(target: request.uri.string, path: request.uri.path, authorization: request.headers[.authorization]) {
            throw refusal
        }
        return try await next(request, context)
    }
}
