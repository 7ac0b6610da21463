import ConditionsKit
import Foundation

/// An in-process HTTP client that answers every request with the same body at once, so the
/// parsing scenarios time the source's own work and nothing of the network.
struct CannedHTTPClient: HTTPClient {
    let body: Data
    let contentType: String

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["content-type": contentType], body: body, url: request.url)
    }
}
