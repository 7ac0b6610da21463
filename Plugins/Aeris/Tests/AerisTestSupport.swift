import ConditionsJSON
import ConditionsKit
import Foundation
import Logging

@testable import Aeris

/// The real Aeris responses copied beside the tests, in Fixtures/ (provenance: Fixtures/SOURCES.md).
enum AerisFixture {
    static func data(_ name: String) throws -> Data {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        return try Data(contentsOf: folder.appendingPathComponent("\(name).json"))
    }

    static func json(_ name: String) throws -> JSONValue {
        try JSONValue.parse(data(name))
    }

    static var sunMoon: JSONValue { get throws { try json("sunmoon") } }
    static var moonPhases: JSONValue { get throws { try json("moonphases") } }
}

/// A step in a path into a JSON document: a member name or an array index.
enum JSONStep: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case key(String)
    case index(Int)
    init(stringLiteral value: String) { self = .key(value) }
    init(integerLiteral value: Int) { self = .index(value) }
}

extension JSONValue {
    /// This document with the value at `path` replaced, or removed when `value` is nil:
    /// how tests derive broken responses from the real ones.
    func replacing(_ path: [JSONStep], with value: JSONValue?) -> JSONValue {
        guard let step = path.first else { return value ?? .null }
        let rest = Array(path.dropFirst())
        switch (step, self) {
        case (.key(let key), .object(var object)):
            if rest.isEmpty {
                object[key] = value
            } else {
                object[key] = (object[key] ?? .null).replacing(rest, with: value)
            }
            return .object(object)
        case (.index(let index), .array(var array)):
            if rest.isEmpty, value == nil {
                array.remove(at: index)
            } else {
                array[index] = array[index].replacing(rest, with: value)
            }
            return .array(array)
        default:
            preconditionFailure("path step \(step) does not fit \(self.typeName)")
        }
    }

    var body: Data { Data(serialized().utf8) }
}

/// An `HTTPClient` that answers every request with one canned response (or error) and
/// records what it was asked.
actor StubHTTPClient: HTTPClient {
    private(set) var requests: [HTTPRequest] = []
    private let status: Int
    private let headers: [String: String]
    private let body: Data
    private let failure: HTTPError?

    init(status: Int = 200, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
        self.failure = nil
    }

    init(failing failure: HTTPError) {
        self.status = 0
        self.headers = [:]
        self.body = Data()
        self.failure = failure
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.append(request)
        if let failure { throw failure }
        return HTTPResponse(status: status, headers: headers, body: body, url: request.url)
    }
}

/// Every log line a logger emits, with its metadata, so tests can search them for secrets.
// @unchecked: `LogHandler.log` is synchronous and may be called from any task, so the lines
// are guarded by an NSLock rather than an actor.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    var lines: [String] { lock.withLock { storage } }

    func append(_ line: String) { lock.withLock { storage.append(line) } }

    /// A logger at `trace` level writing into this capture.
    var logger: Logger {
        Logger(label: "aeris-tests") { _ in CapturingLogHandler(capture: self) }
    }
}

struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        capture.append("\(event.level) \(event.message) \(rendered)")
    }
}

/// Builds sources, contexts and locations the way the host would.
enum AerisHarness {
    static let clientId = "aeris-ID-4711"
    static let secret = "s3cr3t-VALUE"
    static let seattle = Place(name: "Seattle", latitude: 47.6097, longitude: -122.3331, timeZone: TimeZone(identifier: "America/Los_Angeles"))
    /// 2015-04-13T16:00:00Z, the day of the real `/sunmoon` response.
    static let now = Date(timeIntervalSince1970: 1_428_940_800)

    static func options(_ members: [(String, JSONValue)]) -> SourceOptions {
        SourceOptions(path: "sources.aeris.options", object: JSONObject(members), baseDirectory: URL(fileURLWithPath: "/tmp"))
    }

    static var credentials: [(String, JSONValue)] {
        [("clientId", .string(clientId)), ("clientSecret", .string(secret))]
    }

    static func source(_ members: [(String, JSONValue)]? = nil, logger: Logger = Logger(label: "aeris-tests")) throws -> AerisSource {
        try AerisSource(configuration: SourceConfiguration(
            instance: "aeris", options: options(members ?? credentials),
            configDirectory: URL(fileURLWithPath: "/tmp"), place: seattle, logger: logger))
    }

    static func context(_ http: any HTTPClient, place: Place = seattle, logger: Logger = Logger(label: "aeris-tests")) -> SourceContext {
        SourceContext(now: now, place: place, logger: logger, http: http)
    }

    /// Routes `urn` to `source` the way the host's router does.
    static func location(_ urn: String, in source: AerisSource) throws -> Location {
        var router = Router<Int>()
        for pattern in source.routes { try router.register(pattern, 0) }
        return try router.match(URN(urn)).location
    }

    /// Resolves `urn` against a stub serving `body` (or `status`), returning the result and the stub.
    static func resolve(_ urn: String, status: Int = 200, headers: [String: String] = [:], body: Data,
                        source: AerisSource? = nil, logger: Logger = Logger(label: "aeris-tests")) async throws -> (SourceResult, StubHTTPClient) {
        let source = try source ?? self.source()
        let http = StubHTTPClient(status: status, headers: headers, body: body)
        let result = try await source.resolve(location(urn, in: source), context: context(http, logger: logger))
        return (result, http)
    }

    /// The error `urn` fails with against a stub serving `body` with `status`.
    static func failure(_ urn: String, status: Int = 200, headers: [String: String] = [:], body: Data,
                        source: AerisSource? = nil, logger: Logger = Logger(label: "aeris-tests")) async throws -> (any Error)? {
        do {
            _ = try await resolve(urn, status: status, headers: headers, body: body, source: source, logger: logger)
            return nil
        } catch {
            return error
        }
    }
}
