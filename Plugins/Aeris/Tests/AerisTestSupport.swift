import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Logging

@testable import Aeris

/// The real Aeris responses copied beside the tests, in Resources/ (provenance: Resources/SOURCES.md).
enum AerisFixture {
    static func data(_ name: String) throws -> Data {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
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

/// Aeris's credentials, clock and sources, and URNs resolved against a recorder serving one
/// response; contexts, routing and the recorder are ConditionsKitTesting's.
enum AerisHarness {
    static let clientId = "aeris-ID-4711"
    static let secret = "s3cr3t-VALUE"
    /// 2015-04-13T16:00:00Z, the day of the real `/sunmoon` response.
    static let now = Date(timeIntervalSince1970: 1_428_940_800)

    static var credentials: [(String, JSONValue)] {
        [("clientId", .string(clientId)), ("clientSecret", .string(secret))]
    }

    static func source(_ members: [(String, JSONValue)]? = nil, logger: Logger = Logger(label: "aeris-tests")) throws -> AerisSource {
        try AerisSource(configuration: .testing(instance: "aeris", options: JSONObject(members ?? credentials),
                                                configDirectory: URL(fileURLWithPath: "/tmp"), logger: logger))
    }

    /// Resolves `urn` against a recorder serving `body` (or `status`), returning the result and the recorder.
    static func resolve(_ urn: String, status: Int = 200, headers: [String: String] = [:], body: Data,
                        source: AerisSource? = nil, logger: Logger = Logger(label: "aeris-tests")) async throws -> (SourceResult, RecordingHTTPClient) {
        let source = try source ?? self.source()
        let http = RecordingHTTPClient(.response(status: status, headers: headers, body: body))
        let result = try await source.resolve(urn, context: SourceContextBuilder(now: now, logger: logger, http: http).build())
        return (result, http)
    }

    /// The error `urn` fails with against a recorder serving `body` with `status`.
    static func failure(_ urn: String, status: Int = 200, headers: [String: String] = [:], body: Data,
                        source: AerisSource? = nil, logger: Logger = Logger(label: "aeris-tests")) async throws -> (any Error)? {
        let source = try source ?? self.source()
        let http = RecordingHTTPClient(.response(status: status, headers: headers, body: body))
        return await source.error(resolving: urn, context: SourceContextBuilder(now: now, logger: logger, http: http).build())
    }
}
