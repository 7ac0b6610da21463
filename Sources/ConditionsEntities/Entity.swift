import ConditionsJSON
import ConditionsText
import Foundation

/// One value of a result a home-automation system shows and automates on: a sensor (a number,
/// a word, a time) or a binary sensor (on or off). A kind's presentation lists them
/// (`ResultPresentation.entities(_:context:)`); `conditions serve` publishes them to Home
/// Assistant over MQTT discovery (docs/home-assistant.md), one device per URN.
///
/// The fields are Home Assistant's own, so a module says exactly what HA will show:
/// ```swift
/// Entity.sensor("temperature", name: "Temperature", state: .int(28),
///               deviceClass: "temperature", unit: "°F", stateClass: "measurement")
/// Entity.binary("closed", name: "Closed", on: false, attributes: ["closedBy": .null])
/// ```
public struct Entity: Sendable, Equatable {
    /// What HA makes of it.
    public enum Component: String, Sendable, Equatable {
        /// A value: a number (with a unit), a word (an enum's option), a time.
        case sensor
        /// On or off.
        case binarySensor = "binary_sensor"
    }

    /// Sensor or binary sensor.
    public var component: Component
    /// The entity's name within its device, stable across releases (`closed`, `temperature`):
    /// `[a-z0-9_]` only; HA's unique id is the device's id and this key.
    public var key: String
    /// What HA shows under the device's name: `Closed`, `Temperature`.
    public var name: String
    /// The value: a string, number or (binary sensors) bool; `.null` when not known now (HA
    /// shows "unknown"). A timestamp sensor's is an ISO 8601 time with its offset.
    public var state: JSONValue
    /// HA's device class: `temperature`, `timestamp`, `enum`, `precipitation`, `problem`, …
    public var deviceClass: String?
    /// The unit of a number: `°F`, `in`, `%`.
    public var unit: String?
    /// `measurement` for a value sampled now (HA keeps long-term statistics of it).
    public var stateClass: String?
    /// An icon, `mdi:snowflake`; nil: the device class's.
    public var icon: String?
    /// `diagnostic` for an entity about the report rather than the conditions (its age).
    public var category: String?
    /// An enum sensor's possible states (device class `enum`).
    public var options: [String]?
    /// Extra values HA keeps beside the state (`closedBy`, a camera's URL).
    public var attributes: [String: JSONValue]

    /// An entity with every field given.
    public init(component: Component, key: String, name: String, state: JSONValue, deviceClass: String? = nil, unit: String? = nil,
                stateClass: String? = nil, icon: String? = nil, category: String? = nil, options: [String]? = nil,
                attributes: [String: JSONValue] = [:]) {
        self.component = component
        self.key = key
        self.name = name
        self.state = state
        self.deviceClass = deviceClass
        self.unit = unit
        self.stateClass = stateClass
        self.icon = icon
        self.category = category
        self.options = options
        self.attributes = attributes
    }

    /// A sensor.
    public static func sensor(_ key: String, name: String, state: JSONValue, deviceClass: String? = nil, unit: String? = nil,
                              stateClass: String? = nil, icon: String? = nil, category: String? = nil,
                              attributes: [String: JSONValue] = [:]) -> Entity {
        Entity(component: .sensor, key: key, name: name, state: state, deviceClass: deviceClass, unit: unit, stateClass: stateClass,
               icon: icon, category: category, attributes: attributes)
    }

    /// A sensor of a number measured now (state class `measurement`); nil: unknown.
    public static func measurement(_ key: String, name: String, _ value: Double?, unit: String?, deviceClass: String? = nil,
                                   icon: String? = nil, attributes: [String: JSONValue] = [:]) -> Entity {
        sensor(key, name: name, state: value.flatMap { $0.isFinite ? JSONValue.double($0) : nil } ?? .null, deviceClass: deviceClass, unit: unit,
               stateClass: "measurement", icon: icon, attributes: attributes)
    }

    /// An enum sensor: one of `options`, or unknown when `value` is nil or not one of them.
    public static func choice(_ key: String, name: String, _ value: String?, options: [String], icon: String? = nil,
                              attributes: [String: JSONValue] = [:]) -> Entity {
        Entity(component: .sensor, key: key, name: name, state: value.flatMap { options.contains($0) ? .string($0) : nil } ?? .null,
               deviceClass: "enum", icon: icon, options: options, attributes: attributes)
    }

    /// A timestamp sensor (ISO 8601 with offset, as HA requires); nil: unknown.
    public static func time(_ key: String, name: String, _ date: Date?, icon: String? = nil, category: String? = nil,
                            attributes: [String: JSONValue] = [:]) -> Entity {
        sensor(key, name: name, state: date.map { .string(Entity.iso8601($0)) } ?? .null, deviceClass: "timestamp", icon: icon,
               category: category, attributes: attributes)
    }

    /// A binary sensor; nil: unknown.
    public static func binary(_ key: String, name: String, on: Bool?, deviceClass: String? = nil, icon: String? = nil,
                              attributes: [String: JSONValue] = [:]) -> Entity {
        Entity(component: .binarySensor, key: key, name: name, state: on.map(JSONValue.bool) ?? .null, deviceClass: deviceClass,
               icon: icon, attributes: attributes)
    }

    /// `2026-11-28T19:40:00Z`: UTC, which HA reads as any offset.
    static func iso8601(_ date: Date) -> String { Timestamp.string(from: date) }
}
