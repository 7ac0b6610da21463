// Shared by the fuzz targets that drive a source's `resolve()`: compiled into each of them by
// scripts/fuzz (never part of the SwiftPM package).
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Logging
import Synchronization

/// An `HTTPClient` that answers every request with the fuzz input as the body.
struct FuzzHTTPClient: HTTPClient {
    let body: Data
    let headers: [String: String]
    var status = 200

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: body, url: request.url)
    }
}

enum FuzzSupport {
    static let place = Place(name: "Seattle", latitude: 47.6097, longitude: -122.3331, timeZone: TimeZone(identifier: "America/Los_Angeles"))
    static let now = Date(timeIntervalSince1970: 1_795_269_600) // 2026-11-21T14:00:00Z
    static let logger: Logger = {
        var logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        return logger
    }()

    /// A configuration for a module instance with `options` (a JSON object as text).
    static func configuration(_ options: String) -> SourceConfiguration {
        guard let object = try? JSONValue.parse(Data(options.utf8)).objectValue else { preconditionFailure("bad options literal") }
        return SourceConfiguration(instance: "fuzz", options: SourceOptions(path: "sources.fuzz.options", object: object, baseDirectory: URL(fileURLWithPath: "/tmp")),
                                   configDirectory: URL(fileURLWithPath: "/tmp"), place: place, logger: logger)
    }

    /// Resolves each URN against `source` with `http`, synchronously, handing each result's
    /// data to `then` (a presentation, say); errors are expected (that is the point), only
    /// crashes, hangs and sanitizer reports count.
    static func resolve(_ urns: [String], with source: any ConditionsSource, http: any HTTPClient,
                        then: (JSONValue) -> Void = { _ in }) {
        for (_, result) in resolveAll(urns, with: source, http: http) { then(result.data) }
    }

    /// As `resolve`, returning the results that succeeded (URN and result), for a target that
    /// also feeds them to the module's presentations.
    static func resolveAll(_ urns: [String], with source: any ConditionsSource, http: any HTTPClient) -> [(String, SourceResult)] {
        var router = Router<Int>()
        for pattern in source.routes { try? router.register(pattern, 0) }
        let context = SourceContext(now: now, place: place, logger: logger, http: http)
        let done = DispatchSemaphore(value: 0)
        let results = Results()
        Task {
            for urn in urns {
                guard let parsed = try? URN(urn), let (location, _) = try? router.match(parsed) else { preconditionFailure("bad URN \(urn)") }
                if let result = try? await source.resolve(location, context: context) {
                    _ = result.data.serialized()
                    results.append((urn, result))
                }
            }
            done.signal()
        }
        done.wait()
        return results.all
    }

    /// Each result through the presentation of its kind among `presentations`: its text,
    /// change key and card, as `conditions`, `watch` and the dashboard make them.
    static func present(_ results: [(String, SourceResult)], with presentations: [any ResultPresentation]) {
        for (urn, result) in results {
            let presentation = presentations.first { $0.kind == result.kind }
            let context = PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
            _ = presentation?.render(result.data, context: context)
            _ = presentation?.changeKey(result.data)
            _ = presentation?.card(result.data, context: context)
        }
    }

    /// Results handed from the resolving task to the waiting thread (after `done.signal()`:
    /// the semaphore orders the accesses, the lock makes that visible to the checker).
    private final class Results: Sendable {
        private let lock = Mutex<[(String, SourceResult)]>([])
        func append(_ result: (String, SourceResult)) { lock.withLock { $0.append(result) } }
        var all: [(String, SourceResult)] { lock.withLock { $0 } }
    }
}
