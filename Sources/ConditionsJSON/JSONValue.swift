import ConditionsText
import Foundation
import OrderedCollections

/// A JSON document: what sources return as result `data`, what `sources.json` holds and what
/// fixtures replay.
///
/// Objects keep their keys in insertion order so output reads in the order a source built it,
/// and integers stay exact (`Int`) instead of passing through `Double`.
///
/// ```swift
/// let data: JSONValue = ["id": "snoqualmie", "elevationFt": 3022, "open": true]
/// print(data.serialized())   // {"id":"snoqualmie","elevationFt":3022,"open":true}
/// ```
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON object whose keys keep their insertion order, with O(1) lookup by key.
public struct JSONObject: Sendable, Equatable, Sequence {
    /// The members, in order (swift-collections' `OrderedDictionary`: a hash table beside the
    /// key array, so an object of 100,000 members parses in linear time).
    public private(set) var members: OrderedDictionary<String, JSONValue> = [:]

    /// An empty object.
    public init() {}

    /// An object holding `entries` in order; a repeated key keeps its first position and last value.
    public init(_ entries: [(String, JSONValue)]) {
        members.reserveCapacity(entries.count)
        for (key, value) in entries { members[key] = value }
    }

    /// The member named `key`; assigning `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get { members[key] }
        set { members[key] = newValue }
    }

    /// The member names, in order.
    public var keys: [String] { Array(members.keys) }
    /// The number of members.
    public var count: Int { members.count }
    /// Iterates the members in order as `(key, value)` pairs.
    public func makeIterator() -> OrderedDictionary<String, JSONValue>.Iterator { members.makeIterator() }
}

// MARK: - Reading values

extension JSONValue {
    /// The member `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// The instant, when this is a string `Timestamp.parse` reads (the ISO 8601 that JSON
    /// output and every module's data write dates as).
    public var dateValue: Date? { stringValue.flatMap { Timestamp.parse($0) } }
    /// The boolean, when this is a boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// The number as an `Int`, when this is an integer or a double with no fractional part.
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int(d)
        default: return nil
        }
    }
    /// The number as a `Double`, when this is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    /// The members, when this is an object.
    public var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }
    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// A short name of this value's type for error messages ("string", "number", ...).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue {
    /// `.string(value)`, or `.null` when `value` is nil.
    public init(_ value: String?) { self = value.map(JSONValue.string) ?? .null }
    /// `.int(value)`, or `.null` when `value` is nil.
    public init(_ value: Int?) { self = value.map(JSONValue.int) ?? .null }
    /// `.double(value)`, or `.null` when `value` is nil or not finite.
    public init(_ value: Double?) {
        guard let value, value.isFinite else { self = .null; return }
        self = .double(value)
    }
    /// The date as an ISO 8601 UTC string, or `.null` when `date` is nil.
    public init(_ date: Date?) { self = date.map { .string(Timestamp.string(from: $0)) } ?? .null }
}

// MARK: - Codable bridge

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let i = try? container.decode(Int.self) { self = .int(i) }
        else if let d = try? container.decode(Double.self) { self = .double(d) }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let a = try? container.decode([JSONValue].self) { self = .array(a) }
        else if let o = try? container.decode([String: JSONValue].self) {
            self = .object(JSONObject(o.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(Dictionary(uniqueKeysWithValues: o.members.elements.map { ($0.key, $0.value) }))
        }
    }

    /// Converts any `Encodable` value (a source's own result struct, say) to a `JSONValue`,
    /// keeping the order in which it encodes its keys; dates become ISO 8601 UTC strings.
    public init(encoding value: some Encodable) throws {
        self = try JSONValueEncoder().encode(value)
    }

    /// Decodes this value as `type` with Foundation's `JSONDecoder`.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(serialized().utf8))
    }
}
