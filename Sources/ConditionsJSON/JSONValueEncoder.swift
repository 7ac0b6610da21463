import ConditionsText
import Foundation

/// Encodes an `Encodable` straight into a `JSONValue`, keeping keys in the order the type
/// encodes them. Foundation's `JSONEncoder` cannot be used for this: on Linux it collects
/// members in a hashed dictionary, so its key order changes from one run to the next.
///
/// Dates become ISO 8601 UTC strings, URLs their absolute string, `Data` base64 and
/// non-finite numbers `null`, matching what the writer would print.
struct JSONValueEncoder {
    func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        try root.store(value, codingPath: [])
        return root.json
    }
}

/// One value being built; containers hand out child nodes that are filled in later, which is
/// why this is a reference type.
private final class Node {
    enum Content {
        case unset
        case value(JSONValue)
        case array([Node])
        case object([(key: String, node: Node)])
    }

    var content: Content = .unset

    var json: JSONValue {
        switch content {
        case .unset: return .object(JSONObject())
        case .value(let value): return value
        case .array(let nodes): return .array(nodes.map(\.json))
        case .object(let members): return .object(JSONObject(members.map { ($0.key, $0.node.json) }))
        }
    }

    /// The child for `key`, replacing an earlier member of that name in place.
    func member(_ key: String) -> Node {
        var members: [(key: String, node: Node)] = []
        if case .object(let existing) = content { members = existing }
        let child = Node()
        if let index = members.firstIndex(where: { $0.key == key }) { members[index].node = child } else { members.append((key, child)) }
        content = .object(members)
        return child
    }

    func element() -> Node {
        var nodes: [Node] = []
        if case .array(let existing) = content { nodes = existing }
        let child = Node()
        nodes.append(child)
        content = .array(nodes)
        return child
    }

    var elementCount: Int { if case .array(let nodes) = content { nodes.count } else { 0 } }

    func store(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let json as JSONValue: content = .value(json)
        case let date as Date: content = .value(.string(Timestamp.string(from: date)))
        case let url as URL: content = .value(.string(url.absoluteString))
        case let data as Data: content = .value(.string(data.base64EncodedString()))
        case let decimal as Decimal: content = .value(JSONValue(Double("\(decimal)")))
        default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }
}

private struct NodeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }
}

/// A key for array positions in coding paths.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// Converts the primitive types every container accepts.
private enum Primitive {
    static func json(_ value: Double) -> JSONValue { JSONValue(value) }
    static func json(_ value: Float) -> JSONValue { value.isFinite ? JSONValue(Double("\(value)")) : .null }
    static func json(_ value: some BinaryInteger) -> JSONValue {
        if let int = Int(exactly: value) { return .int(int) }
        return .double(Double(value))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    func encodeNil(forKey key: Key) throws { node.member(key.stringValue).content = .value(.null) }
    func encode(_ value: Bool, forKey key: Key) throws { node.member(key.stringValue).content = .value(.bool(value)) }
    func encode(_ value: String, forKey key: Key) throws { node.member(key.stringValue).content = .value(.string(value)) }
    func encode(_ value: Double, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }
    func encode(_ value: Float, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }
    func encode(_ value: Int, forKey key: Key) throws { node.member(key.stringValue).content = .value(.int(value)) }
    func encode(_ value: Int8, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }
    func encode(_ value: Int16, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }
    func encode(_ value: Int32, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }
    func encode(_ value: Int64, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }
    func encode(_ value: UInt, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }
    func encode(_ value: UInt8, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }
    func encode(_ value: UInt16, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }
    func encode(_ value: UInt32, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }
    func encode(_ value: UInt64, forKey key: Key) throws { node.member(key.stringValue).content = .value(Primitive.json(value)) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(key.stringValue).store(value, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superEncoder() -> any Encoder {
        NodeEncoder(node: node.member("super"), codingPath: codingPath)
    }

    func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int { node.elementCount }

    func encodeNil() throws { node.element().content = .value(.null) }
    func encode(_ value: Bool) throws { node.element().content = .value(.bool(value)) }
    func encode(_ value: String) throws { node.element().content = .value(.string(value)) }
    func encode(_ value: Double) throws { node.element().content = .value(Primitive.json(value)) }
    func encode(_ value: Float) throws { node.element().content = .value(Primitive.json(value)) }
    func encode(_ value: Int) throws { node.element().content = .value(.int(value)) }
    func encode(_ value: Int8) throws { node.element().content = .value(Primitive.json(value)) }
    func encode(_ value: Int16) throws { node.element().content = .value(Primitive.json(value)) }
    func encode(_ value: Int32) throws { node.element().content = .value(Primitive.json(value)) }
    func encode(_ value: Int64) throws { node.element().content = .value(Primitive.json(value)) }
    func encode(_ value: UInt) throws { node.element().content = .value(Primitive.json(value)) }
    func encode(_ value: UInt8) throws { node.element().content = .value(Primitive.json(value)) }
    func encode(_ value: UInt16) throws { node.element().content = .value(Primitive.json(value)) }
    func encode(_ value: UInt32) throws { node.element().content = .value(Primitive.json(value)) }
    func encode(_ value: UInt64) throws { node.element().content = .value(Primitive.json(value)) }

    func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [IndexKey(count)]
        try node.element().store(value, codingPath: path)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [IndexKey(count)]
        return NodeEncoder(node: node.element(), codingPath: path).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [IndexKey(count)]
        return NodeEncoder(node: node.element(), codingPath: path).unkeyedContainer()
    }

    func superEncoder() -> any Encoder {
        let path = codingPath + [IndexKey(count)]
        return NodeEncoder(node: node.element(), codingPath: path)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    func encodeNil() throws { node.content = .value(.null) }
    func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
    func encode(_ value: String) throws { node.content = .value(.string(value)) }
    func encode(_ value: Double) throws { node.content = .value(Primitive.json(value)) }
    func encode(_ value: Float) throws { node.content = .value(Primitive.json(value)) }
    func encode(_ value: Int) throws { node.content = .value(.int(value)) }
    func encode(_ value: Int8) throws { node.content = .value(Primitive.json(value)) }
    func encode(_ value: Int16) throws { node.content = .value(Primitive.json(value)) }
    func encode(_ value: Int32) throws { node.content = .value(Primitive.json(value)) }
    func encode(_ value: Int64) throws { node.content = .value(Primitive.json(value)) }
    func encode(_ value: UInt) throws { node.content = .value(Primitive.json(value)) }
    func encode(_ value: UInt8) throws { node.content = .value(Primitive.json(value)) }
    func encode(_ value: UInt16) throws { node.content = .value(Primitive.json(value)) }
    func encode(_ value: UInt32) throws { node.content = .value(Primitive.json(value)) }
    func encode(_ value: UInt64) throws { node.content = .value(Primitive.json(value)) }

    func encode<T: Encodable>(_ value: T) throws { try node.store(value, codingPath: codingPath) }
}
