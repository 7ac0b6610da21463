import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Logging
@testable import WSDOT

/// A file under Tests/Resources.
func fixture(_ name: String) throws -> Data {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
    return try Data(contentsOf: folder.appendingPathComponent(name))
}

extension RecordingHTTPClient.Reply {
    /// A page under Tests/Resources, as HTML in `charset`.
    static func htmlFixture(_ name: String, charset: String = "utf-8") throws -> Self {
        .body(try fixture(name), contentType: "text/html; charset=\(charset)")
    }

    /// A document under Tests/Resources, as JSON.
    static func jsonFixture(_ name: String) throws -> Self {
        .body(try fixture(name), contentType: "application/json; charset=utf-8")
    }

    /// `code` with the small HTML error page WSDOT's servers send.
    static func errorPage(_ code: Int) -> Self {
        .body(Data("<html><body>Error \(code)</body></html>".utf8), status: code, contentType: "text/html")
    }
}

/// A source built from `options` (a JSON object literal) as the host would.
func makeSource(_ options: JSONObject = JSONObject(), instance: String = "wsdot") throws -> WSDOTPassSource {
    try WSDOTPassSource(configuration: .testing(instance: instance, options: options, configDirectory: URL(fileURLWithPath: "/tmp"),
                                                logger: Logger(label: "test.\(instance)")))
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

/// The clock the tests pin by default: 2025-12-15T07:50:00Z.
let testNow = Date(timeIntervalSince1970: 1_765_785_000)

/// Resolves `urn` against `source` the way the host does: route, then resolve, fetching
/// through `http` within `limits`. `maxAge` is what the host allows of a document fetched for
/// an earlier URN (its TTL).
func resolve(_ urn: String, with source: WSDOTPassSource, http: any HTTPClient, now: Date = testNow,
             maxAge: Double = 0, limits: HTTPLimits = HTTPLimits()) async throws -> JSONValue {
    let context = SourceContextBuilder(now: now, logger: Logger(label: "test"), http: http, limits: limits, maxAge: maxAge)
    return try await source.resolve(urn, context: context.build()).data
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

let classicBase = "http://www.wsdot.com/traffic/passes"
