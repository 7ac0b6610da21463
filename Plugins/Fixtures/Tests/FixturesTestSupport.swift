import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
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

/// Fixtures sources as the host makes them; contexts and routing are ConditionsKitTesting's
/// (its defaults: Seattle, the clock pinned at 2026-11-21T14:05:00Z, no network).
enum FixturesTestSupport {
    static let logger = Logger(label: "fixtures-tests")
    /// The pinned clock the sources receive (2026-11-21T14:05:00Z).
    static let now = SourceContextBuilder.defaultNow

    /// A source serving `directory`.
    static func source(directory: URL) throws -> FixturesSource {
        try FixturesSource(configuration: .testing(instance: "fixtures", options: JSONObject([("directory", .string(directory.path))]),
                                                   configDirectory: directory, logger: logger))
    }

    /// A location for `scheme:x` whose `name` argument is `name` verbatim, for names no URN can carry.
    static func location(scheme: String = "pass", name: String) throws -> Location {
        Location(urn: try URN("\(scheme):x"), pattern: RoutePattern("\(scheme):{name}"), arguments: ["name": name])
    }

    /// Resolves `urn` as the host routes it: the source's `{scheme}:{name}` bound to the URN's scheme.
    static func resolve(_ urn: String, in directory: URL) async throws -> SourceResult {
        try await source(directory: directory).resolve(urn, context: SourceContextBuilder(logger: logger).build())
    }
}
