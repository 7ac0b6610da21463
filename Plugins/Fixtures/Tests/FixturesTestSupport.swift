import ConditionsJSON
import ConditionsKit
import Fixtures
import Foundation
import Logging

/// A scratch folder of fixture files, removed by `remove()` (call it in a `defer`).
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("FixturesTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `relativePath`, creating folders on the way.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

enum FixturesTestSupport {
    static let place = Place(name: "Seattle", latitude: 47.6097, longitude: -122.3331, timeZone: TimeZone(identifier: "America/Los_Angeles"))
    static let logger = Logger(label: "fixtures-tests")
    /// The pinned clock the sources receive (2026-11-21T14:05:00Z).
    static let now = Date(timeIntervalSince1970: 1_795_269_900)

    static func configuration(_ options: JSONObject, configDirectory: URL) -> SourceConfiguration {
        SourceConfiguration(
            instance: "fixtures",
            options: SourceOptions(path: "sources.fixtures.options", object: options, baseDirectory: configDirectory),
            configDirectory: configDirectory, place: place, logger: logger)
    }

    /// A source serving `directory`.
    static func source(directory: URL) throws -> FixturesSource {
        try FixturesSource(configuration: configuration(JSONObject([("directory", .string(directory.path))]), configDirectory: directory))
    }

    static var context: SourceContext {
        SourceContext(now: now, place: place, logger: logger, http: UnavailableHTTPClient(reason: "test"))
    }

    /// Routes `urn` the way the host does: the source's `{scheme}:{name}` bound to the URN's scheme.
    static func location(_ urn: String) throws -> Location {
        let parsed = try URN(urn)
        let pattern = RoutePattern("{scheme}:{name}").bound(toScheme: parsed.scheme)
        guard let arguments = pattern.match(parsed) else { throw ConditionsError.notFound("\(urn) does not match \(pattern)") }
        return Location(urn: parsed, pattern: pattern, arguments: arguments)
    }

    /// A location for `scheme:x` whose `name` argument is `name` verbatim, for names no URN can carry.
    static func location(scheme: String = "pass", name: String) throws -> Location {
        Location(urn: try URN("\(scheme):x"), pattern: RoutePattern("\(scheme):{name}"), arguments: ["name": name])
    }

    static func resolve(_ urn: String, in directory: URL) async throws -> SourceResult {
        try await source(directory: directory).resolve(location(urn), context: context)
    }
}
