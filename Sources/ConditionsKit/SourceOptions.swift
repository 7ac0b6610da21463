import ConditionsJSON
import ConditionsText
import Foundation

/// A source's `options` object from `sources.json`, read key by key with typed accessors.
///
/// Every accessor records the key as known; `finish()` then reports any key the module did
/// not read, so typos are errors instead of silently ignored settings. Errors carry the JSON
/// path (`sources.wsdot.options.mode`).
///
/// ```swift
/// init(configuration: SourceConfiguration) throws {
///     var options = configuration.options
///     directory = try options.path("directory") ?? configuration.configDirectory
///     try options.finish()
/// }
/// ```
public struct SourceOptions: Sendable {
    /// The JSON path of this object, e.g. `sources.fixtures.options`.
    public let path: String
    /// The raw object (after `${ENV}` interpolation).
    public let object: JSONObject
    /// The folder relative paths resolve against: the config file's folder.
    public let baseDirectory: URL
    /// Where the program's own data is installed (`share/conditions` beside it): a relative
    /// path that names nothing under `baseDirectory` but something here resolves here, so a
    /// copy of the default config (`config init`, `/etc/conditions`) still finds the recordings.
    public var dataDirectory: URL?
    private var read: Set<String> = []

    /// Options at `path` holding `object`; relative paths resolve against `baseDirectory`,
    /// then `dataDirectory`.
    public init(path: String, object: JSONObject, baseDirectory: URL, dataDirectory: URL? = nil) {
        self.path = path
        self.object = object
        self.baseDirectory = baseDirectory
        self.dataDirectory = dataDirectory
    }

    /// The raw value of `key`, or nil when absent.
    public mutating func value(_ key: String) -> JSONValue? {
        read.insert(key)
        return object[key]
    }

    /// A string, or nil when absent.
    public mutating func string(_ key: String) throws(ConditionsError) -> String? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let string = value.stringValue else { throw typeError(key, "a string", value) }
        return string
    }

    /// A string that must be one of `allowed`, or nil when absent.
    public mutating func string(_ key: String, oneOf allowed: [String]) throws(ConditionsError) -> String? {
        guard let string = try string(key) else { return nil }
        guard allowed.contains(string) else {
            throw ConditionsError.configuration("\(path).\(key): \"\(string)\" is not one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return string
    }

    /// A whole number within `range`, or nil when absent.
    public mutating func int(_ key: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(ConditionsError) -> Int? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let int = value.intValue else { throw typeError(key, "a whole number", value) }
        guard range.contains(int) else {
            throw ConditionsError.configuration("\(path).\(key): \(int) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return int
    }

    /// A number within `range`, or nil when absent.
    public mutating func double(_ key: String, in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) throws(ConditionsError) -> Double? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let double = value.doubleValue else { throw typeError(key, "a number", value) }
        guard range.contains(double) else {
            throw ConditionsError.configuration("\(path).\(key): \(double) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return double
    }

    /// A boolean, or nil when absent.
    public mutating func bool(_ key: String) throws(ConditionsError) -> Bool? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw typeError(key, "true or false", value) }
        return bool
    }

    /// An array of strings, or nil when absent.
    public mutating func strings(_ key: String) throws(ConditionsError) -> [String]? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let array = value.arrayValue else { throw typeError(key, "an array of strings", value) }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            guard let string = element.stringValue else {
                throw ConditionsError.configuration("\(path).\(key)[\(index)]: expected a string, found \(element.typeName)")
            }
            strings.append(string)
        }
        return strings
    }

    /// A file or folder path, resolved against the config file's folder when relative (or the
    /// program's data folder, when only that holds it); nil when absent.
    public mutating func path(_ key: String) throws(ConditionsError) -> URL? {
        guard let string = try string(key) else { return nil }
        guard !string.isEmpty else { throw ConditionsError.configuration("\(path).\(key): the path is empty") }
        if string.hasPrefix("/") { return URL(fileURLWithPath: string).standardizedFileURL }
        if string == "~" || string.hasPrefix("~/") {
            let home = FileManager.default.homeDirectoryForCurrentUser
            return home.appendingPathComponent(String(string.dropFirst(min(2, string.count)))).standardizedFileURL
        }
        let resolved = baseDirectory.appendingPathComponent(string).standardizedFileURL
        if let dataDirectory, !FileManager.default.fileExists(atPath: resolved.path) {
            let installed = dataDirectory.appendingPathComponent(string).standardizedFileURL
            if FileManager.default.fileExists(atPath: installed.path) { return installed }
        }
        return resolved
    }

    /// An absolute http or https URL, trimmed; nil when absent. `withoutQuery`: a base that
    /// paths are appended to, so a query or fragment is refused too.
    public mutating func httpURL(_ key: String, withoutQuery: Bool = false) throws(ConditionsError) -> URL? {
        guard let text = try string(key) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false, !withoutQuery || (url.query == nil && url.fragment == nil) else {
            throw ConditionsError.configuration("\(path).\(key): \"\(trimmed)\" is not an absolute http or https URL\(withoutQuery ? " without a query" : "")")
        }
        return url
    }

    /// A nested options object (its own unknown keys are checked by its own `finish()`), or nil when absent.
    public mutating func object(_ key: String) throws(ConditionsError) -> SourceOptions? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let nested = value.objectValue else { throw typeError(key, "an object", value) }
        return SourceOptions(path: "\(path).\(key)", object: nested, baseDirectory: baseDirectory, dataDirectory: dataDirectory)
    }

    /// Throws a `configuration` error listing every key no accessor has read.
    public func finish() throws(ConditionsError) {
        let unknown = object.keys.filter { !read.contains($0) }
        guard !unknown.isEmpty else { return }
        let known = read.sorted()
        let hints = unknown.map { key in
            let close = Suggestions.closest(to: key, among: known, limit: 1)
            return close.isEmpty ? "\(path).\(key)" : "\(path).\(key) (did you mean \"\(close[0])\"?)"
        }
        throw ConditionsError.configuration("unknown option\(unknown.count > 1 ? "s" : "") \(hints.joined(separator: ", "))"
            + (known.isEmpty ? "; this module takes no options" : "; known: \(known.joined(separator: ", "))"))
    }

    private func typeError(_ key: String, _ expected: String, _ found: JSONValue) -> ConditionsError {
        ConditionsError.configuration("\(path).\(key): expected \(expected), found \(found.typeName)")
    }
}
