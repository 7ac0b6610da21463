import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
@testable import WSDOT

/// A file under Tests/Resources.
func fixture(_ name: String) throws -> Data {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
    return try Data(contentsOf: folder.appendingPathComponent(name))
}

/// A test double for the network: canned replies by URL, every request recorded.
actor StubHTTP: HTTPClient {
    enum Reply: Sendable {
        case body(Data, contentType: String)
        case status(Int)
        case failure(HTTPError)
    }

    private let replies: [String: Reply]
    private(set) var requested: [URL] = []

    init(_ replies: [String: Reply]) { self.replies = replies }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requested.append(request.url)
        switch replies[request.url.absoluteString] {
        case .body(let data, let contentType)?:
            return HTTPResponse(status: 200, headers: ["content-type": contentType], body: data, url: request.url)
        case .status(let code)?:
            return HTTPResponse(status: code, headers: ["content-type": "text/html"], body: Data("<html><body>Error \(code)</body></html>".utf8), url: request.url)
        case .failure(let error)?:
            throw error
        case nil:
            return HTTPResponse(status: 404, body: Data("Not Found".utf8), url: request.url)
        }
    }
}

extension StubHTTP.Reply {
    static func html(_ name: String, charset: String = "utf-8") throws -> Self {
        .body(try fixture(name), contentType: "text/html; charset=\(charset)")
    }

    static func json(_ name: String) throws -> Self {
        .body(try fixture(name), contentType: "application/json; charset=utf-8")
    }
}

let seattle = Place(name: "Seattle", latitude: 47.6097, longitude: -122.3331)

/// A source built from `options` (a JSON object literal) as the host would.
func makeSource(_ options: JSONObject = JSONObject(), instance: String = "wsdot") throws -> WSDOTPassSource {
    let configuration = SourceConfiguration(
        instance: instance,
        options: SourceOptions(path: "sources.\(instance).options", object: options, baseDirectory: URL(fileURLWithPath: "/tmp")),
        configDirectory: URL(fileURLWithPath: "/tmp"),
        place: seattle,
        logger: Logger(label: "test.\(instance)")
    )
    return try WSDOTPassSource(configuration: configuration)
}

/// The configuration error `options` cause, or nil when they load.
func configurationError(_ options: JSONObject) -> ConditionsError? {
    do {
        _ = try makeSource(options)
        return nil
    } catch let error as ConditionsError {
        return error
    } catch {
        return ConditionsError(.internal, "\(error)")
    }
}

/// Resolves `urn` against `source` the way the host does: route, then resolve.
/// `maxAge` is what the host allows of a document fetched for an earlier URN (its TTL).
func resolve(_ urn: String, with source: WSDOTPassSource, http: any HTTPClient, now: Date = Date(timeIntervalSince1970: 1_765_785_000),
             maxAge: Double = 0) async throws -> JSONValue {
    var router = Router<Int>()
    for pattern in source.routes { try router.register(pattern, 0) }
    let (location, _) = try router.match(URN(urn))
    let context = SourceContext(now: now, place: seattle, logger: Logger(label: "test"), http: http, maxAge: maxAge)
    return try await source.resolve(location, context: context).data
}

/// The error resolving `urn` throws, or nil when it succeeds.
func resolveError(_ urn: String, with source: WSDOTPassSource, http: any HTTPClient, maxAge: Double = 0) async -> (any Error)? {
    do {
        _ = try await resolve(urn, with: source, http: http, maxAge: maxAge)
        return nil
    } catch {
        return error
    }
}

extension JSONObject {
    /// An options object from a JSON literal.
    static func json(_ text: String) throws -> JSONObject {
        guard let object = try JSONValue.parse(text).objectValue else { throw ConditionsError.badResponse("not an object: \(text)") }
        return object
    }
}

let classicBase = "http://www.wsdot.com/traffic/passes"
