import ConditionsJSON
import ConditionsKit
import Foundation
import Logging

extension SourceConfiguration {
    /// The configuration the host makes from the `sources.json` entry `instance` with `options`,
    /// for a module's initializer. Errors about options name them as the host does
    /// (`sources.<instance>.options.<key>`); relative paths resolve against `configDirectory`.
    ///
    /// ```swift
    /// let source = try TidesSource(configuration: .testing(instance: "tides", options: ["units": "metric"]))
    /// ```
    public static func testing(instance: String = "test", options: JSONObject = JSONObject(),
                               configDirectory: URL = FileManager.default.temporaryDirectory,
                               place: Place = .seattle, places: Places? = nil, userAgent: String = "conditions",
                               logger: Logger = Logger(label: "conditions-tests")) -> SourceConfiguration {
        SourceConfiguration(
            instance: instance,
            options: SourceOptions(path: "sources.\(instance).options", object: options, baseDirectory: configDirectory),
            configDirectory: configDirectory, place: place, places: places, userAgent: userAgent, logger: logger)
    }

    /// As `testing(instance:options:…)`, from a JSON value that must be an object (a dictionary literal).
    public static func testing(instance: String = "test", options: JSONValue,
                               configDirectory: URL = FileManager.default.temporaryDirectory,
                               place: Place = .seattle, places: Places? = nil, userAgent: String = "conditions",
                               logger: Logger = Logger(label: "conditions-tests")) throws -> SourceConfiguration {
        guard let object = options.objectValue else {
            throw ConditionsError.configuration("sources.\(instance).options: expected an object, found \(options.typeName)")
        }
        return testing(instance: instance, options: object, configDirectory: configDirectory, place: place, places: places,
                       userAgent: userAgent, logger: logger)
    }

    /// As `testing(instance:options:…)`, from the options written as a JSON object literal,
    /// as they would be in `sources.json`.
    ///
    /// ```swift
    /// let source = try TidesSource(configuration: .testing(instance: "tides", json: #"{"stations": ["9447130"]}"#))
    /// ```
    public static func testing(instance: String = "test", json: String,
                               configDirectory: URL = FileManager.default.temporaryDirectory,
                               place: Place = .seattle, places: Places? = nil, userAgent: String = "conditions",
                               logger: Logger = Logger(label: "conditions-tests")) throws -> SourceConfiguration {
        testing(instance: instance, options: try JSONObject.json(json), configDirectory: configDirectory, place: place,
                places: places, userAgent: userAgent, logger: logger)
    }
}

extension JSONObject {
    /// The object a JSON literal writes; a `configuration` error when the text is no object.
    public static func json(_ text: String) throws -> JSONObject {
        let value = try JSONValue.parse(text)
        guard let object = value.objectValue else {
            throw ConditionsError.configuration("expected a JSON object, found \(value.typeName): \(text)")
        }
        return object
    }
}
