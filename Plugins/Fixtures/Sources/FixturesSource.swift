import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

/// Replays recorded results from local files: URN `scheme:name` → `<directory>/scheme/name.json`.
///
/// A fixture file holds one result object exactly as `conditions --format ndjson` prints it,
/// so recording one is `conditions --format ndjson pass:snoqualmie > Fixtures/pass/snoqualmie.json`.
/// The module serves whichever schemes `sources.json` routes to it and never reads outside
/// its directory. A replay has the kind the file's optional `"kind"` member names, else the
/// URN's scheme, so it reads through the same presentation as the live answer.
public struct FixturesSource: ConditionsSource {
    public static let moduleName = "Fixtures"
    public static let summary = "Replays recorded results from local JSON files (offline demos and tests)"
    /// `sample.json`, compiled in: what `conditions config init --module Fixtures` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)

    /// Fixture files larger than this are refused rather than read into memory.
    static let maximumFileSize = 16 << 20

    /// A placeholder scheme: the host binds it to every scheme routed to this instance.
    public let routes: [RoutePattern] = ["{scheme}:{name}"]

    let directory: URL

    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        directory = try options.path("directory") ?? configuration.configDirectory.appendingPathComponent("Fixtures")
        try options.finish()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConditionsError.configuration("\(options.path).directory: \(directory.path) is not a folder")
        }
    }

    /// Every recorded URN, for suggestions and `conditions routes`.
    public var examples: [String] {
        let schemes = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return schemes.sorted().flatMap { scheme in fixtureNames(scheme: scheme).map { "\(scheme):\($0)" } }
    }

    /// The recordings folder, which the config check found.
    public func healthChecks() async -> [HealthCheck] {
        [HealthCheck("recordings", found: directory.path)]
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let scheme = location.urn.scheme.lowercased()
        let name = try location.argument("name")
        try Self.checkPathComponent(scheme, argument: "scheme")
        try Self.checkPathComponent(name, argument: "name")

        let file = directory.appendingPathComponent(scheme).appendingPathComponent(name + ".json")
        guard let real = Self.realPath(file) else {
            let close = Suggestions.closest(to: name, among: fixtureNames(scheme: scheme)).map { "\(scheme):\($0)" }
            throw ConditionsError.notFound("no fixture for \(location.urn) (looked for \(file.path))", suggestions: close)
        }
        // Symlinks are followed, so the check is made on the resolved path: a link that
        // points outside the folder is refused like a literal "..".
        guard let root = Self.realPath(directory), real.hasPrefix(root + "/") else {
            throw ConditionsError(.invalidArguments, "\(location.urn): fixture \(file.path) resolves outside \(directory.path)")
        }
        return try Self.load(URL(fileURLWithPath: real), urn: location.urn)
    }

    /// Rejects anything that could name a file outside `<directory>/<scheme>/`; the URN layer
    /// has already decoded percent escapes, so `%2e%2e` arrives here as `..`.
    static func checkPathComponent(_ value: String, argument: String) throws(ConditionsError) {
        let allowed = "a fixture name: letters, digits, '-', '_' or '.', not starting with '.'"
        if value.isEmpty || value.hasPrefix(".") || value.contains("/") || value.contains("\\")
            || value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        {
            throw ConditionsError.invalidArguments(argument: argument, value: value.unicodeScalars.map { $0.value < 0x20 ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined(), allowed: allowed)
        }
    }

    static func load(_ file: URL, urn: URN) throws -> SourceResult {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        if let size = attributes?[.size] as? Int, size > maximumFileSize {
            throw ConditionsError.badResponse("\(file.path): \(size) bytes is larger than the \(maximumFileSize)-byte limit for fixtures")
        }
        let bytes: Data
        do { bytes = try Data(contentsOf: file) } catch {
            throw ConditionsError.badResponse("\(file.path): cannot read: \(error.localizedDescription)")
        }
        let record: JSONValue
        do { record = try JSONValue.parse(bytes) } catch {
            throw ConditionsError.badResponse("\(file.path):\(error.line):\(error.column): \(error.reason)")
        }
        guard let object = record.objectValue else {
            throw ConditionsError.badResponse("\(file.path): expected a result object, found \(record.typeName)")
        }
        // A recorded failure replays as that failure, so failing reports can be demonstrated offline.
        if let error = object["error"] {
            let message = error["message"]?.stringValue ?? "recorded failure for \(urn)"
            // A kind outside the vocabulary (`ErrorKind`) replays as `upstream`.
            throw ConditionsError(error["kind"]?.stringValue.flatMap(ErrorKind.init(rawValue:)) ?? .upstream, message)
        }
        guard let data = object["data"] else {
            throw ConditionsError.badResponse("\(file.path): the result object has no \"data\" member")
        }
        var fetchedAt: Date?
        if let text = object["fetchedAt"]?.stringValue {
            guard let date = Timestamp.parse(text) else {
                throw ConditionsError.badResponse("\(file.path): fetchedAt \"\(text)\" is not an ISO 8601 date-time")
            }
            fetchedAt = date
        }
        // Recordings made with `--format ndjson` carry no kind (the output contract has none);
        // by convention a kind is the scheme of the routes producing it, so the scheme names it.
        let kind = object["kind"]?.stringValue.map(ResultKind.init(rawValue:)) ?? ResultKind(rawValue: urn.scheme.lowercased())
        return SourceResult(data: data, kind: kind, fetchedAt: fetchedAt)
    }

    func fixtureNames(scheme: String) -> [String] {
        let folder = directory.appendingPathComponent(scheme)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The canonical path with every symlink resolved, or nil when the file does not exist.
    static func realPath(_ url: URL) -> String? {
        guard let resolved = realpath(url.path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
