import ConditionsText
@testable import ConditionsJSON
import Foundation
import Testing
import ConditionsKit

/// The value type itself: ordered objects, typed readers, literals and the Codable bridge.
@Suite struct JSONValueTests {
    private struct Pass: Codable, Equatable {
        var zulu: String
        var alpha: Int
        var mike: Double
        var updated: Date
        var advisory: String?
        var nested: Nested
    }

    private struct Nested: Codable, Equatable {
        var yankee: Bool
        var bravo: [Int]
    }

    @Test func encodingKeepsStructKeyOrderAndWritesUTCDates() throws {
        let updated = try #require(Timestamp.parse("2026-11-21T06:05:00-08:00"))
        let pass = Pass(zulu: "z", alpha: 1, mike: 2.5, updated: updated, advisory: nil, nested: Nested(yankee: true, bravo: [3, 4]))
        let value = try JSONValue(encoding: pass)
        #expect(value.objectValue?.keys == ["zulu", "alpha", "mike", "updated", "nested"])
        #expect(value["nested"]?.objectValue?.keys == ["yankee", "bravo"])
        #expect(value["updated"] == "2026-11-21T14:05:00Z")
        #expect(value.serialized() == #"{"zulu":"z","alpha":1,"mike":2.5,"updated":"2026-11-21T14:05:00Z","nested":{"yankee":true,"bravo":[3,4]}}"#)
    }

    @Test func decodeReadsBack() throws {
        struct Small: Decodable, Equatable { var id: String; var n: Int; var tags: [String] }
        let value: JSONValue = ["id": "white", "n": 3, "tags": ["a", "b"], "ignored": nil]
        #expect(try value.decode(Small.self) == Small(id: "white", n: 3, tags: ["a", "b"]))
        #expect(throws: (any Error).self) { try (["id": 1] as JSONValue).decode(Small.self) }
    }

    @Test func objectSubscriptInsertsReplacesAndRemoves() {
        var object = JSONObject()
        object["b"] = 1
        object["a"] = 2
        object["b"] = 3
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == .int(3))
        object["b"] = nil
        #expect(object.keys == ["a"])
        #expect(object.count == 1)
        object["missing"] = nil
        #expect(object.count == 1)
        #expect(Array(object.map(\.key)) == ["a"])
    }

    @Test func objectEqualityIsOrderSensitive() {
        #expect(JSONObject([("a", 1), ("b", 2)]) == JSONObject([("a", 1), ("b", 2)]))
        #expect(JSONObject([("a", 1), ("b", 2)]) != JSONObject([("b", 2), ("a", 1)]))
        #expect(JSONObject([("a", 1)]) != JSONObject([("a", 2)]))
        #expect(JSONObject([("a", 1), ("a", 5)]) == JSONObject([("a", 5)]))
    }

    @Test func typedReaders() {
        #expect(JSONValue.int(3).intValue == 3)
        #expect(JSONValue.double(3).intValue == 3)
        #expect(JSONValue.double(3.5).intValue == nil)
        #expect(JSONValue.double(1e300).intValue == nil)
        #expect(JSONValue.string("3").intValue == nil)
        #expect(JSONValue.int(3).doubleValue == 3.0)
        #expect(JSONValue.bool(true).doubleValue == nil)
        #expect(JSONValue.string("x").stringValue == "x")
        #expect(JSONValue.int(1).stringValue == nil)
        #expect(JSONValue.bool(false).boolValue == false)
        #expect(JSONValue.int(0).boolValue == nil)
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.object(JSONObject([("k", 1)])).objectValue?.keys == ["k"])
        #expect(JSONValue.array([]).objectValue == nil)
        #expect(JSONValue.null.isNull)
        #expect(!JSONValue.int(0).isNull)
        #expect(JSONValue.string("x")["k"] == nil)
    }

    @Test func typeNames() {
        let names = ([.null, true, 1, 1.5, "s", [], [:]] as [JSONValue]).map(\.typeName)
        #expect(names == ["null", "boolean", "number", "number", "string", "array", "object"])
    }

    @Test func optionalInitializers() throws {
        #expect(JSONValue(nil as String?) == .null)
        #expect(JSONValue("x" as String?) == .string("x"))
        #expect(JSONValue(nil as Int?) == .null)
        #expect(JSONValue(7 as Int?) == .int(7))
        #expect(JSONValue(nil as Date?) == .null)
        let date = try #require(Timestamp.parse("2026-11-21T14:05:00Z"))
        #expect(JSONValue(date as Date?) == .string("2026-11-21T14:05:00Z"))
    }
}

/// `JSONValue(encoding:)` on the shapes sources actually build.
@Suite struct JSONValueEncodingTests {
    private enum Status: String, Codable { case open, closed }

    private struct Restriction: Encodable {
        var direction: String
        var status: Status
    }

    private struct Report: Encodable {
        var zeta: [Restriction]
        var epsilon: JSONValue
        var delta: URL
        var gamma: Double
        var beta: String?
        var alpha: [Date]
    }

    @Test func nestedArraysEnumsAndEmbeddedValuesKeepOrder() throws {
        let date = try #require(Timestamp.parse("2026-12-24T01:28:00Z"))
        let report = Report(
            zeta: [Restriction(direction: "Eastbound", status: .closed), Restriction(direction: "Westbound", status: .open)],
            epsilon: ["y": 1, "b": 2],
            delta: try #require(URL(string: "https://wsdot.com/travel?a=1")),
            gamma: .infinity,
            beta: nil,
            alpha: [date])
        let value = try JSONValue(encoding: report)
        #expect(value.serialized() == #"{"zeta":[{"direction":"Eastbound","status":"closed"},{"direction":"Westbound","status":"open"}],"epsilon":{"y":1,"b":2},"delta":"https://wsdot.com/travel?a=1","gamma":null,"alpha":["2026-12-24T01:28:00Z"]}"#)
    }

    private struct Custom: Encodable {
        enum Keys: String, CodingKey { case z, a, list, nested }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(UInt64.max, forKey: .z)
            try container.encodeNil(forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(Int8(-3))
            try list.encode(Float(0.1))
            try list.encode(true)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nested.encode("x", forKey: .z)
            try nested.encode(2, forKey: .a)
        }
    }

    @Test func handWrittenEncodeWithNestedContainers() throws {
        let value = try JSONValue(encoding: Custom())
        #expect(value.objectValue?.keys == ["z", "a", "list", "nested"])
        #expect(value["z"] == .double(Double(UInt64.max)))
        #expect(value["a"] == .null)
        #expect(value["list"] == [-3, 0.1, true])
        #expect(value["nested"]?.serialized() == #"{"z":"x","a":2}"#)
    }

    @Test func topLevelScalarsAndCollections() throws {
        #expect(try JSONValue(encoding: 3) == .int(3))
        #expect(try JSONValue(encoding: "x") == .string("x"))
        #expect(try JSONValue(encoding: [1, 2]) == [1, 2])
        #expect(try JSONValue(encoding: Optional<Int>.none) == .null)
        #expect(try JSONValue(encoding: ["k": "v", "a": 1] as JSONValue) == ["k": "v", "a": 1])
    }

    @Test func orderIsStableAcrossManyKeys() throws {
        struct Wide: Encodable { var k9 = 9, k1 = 1, k8 = 8, k2 = 2, k7 = 7, k3 = 3, k6 = 6, k4 = 4, k5 = 5 }
        #expect(try JSONValue(encoding: Wide()).objectValue?.keys == ["k9", "k1", "k8", "k2", "k7", "k3", "k6", "k4", "k5"])
    }

    /// Dates travel as ISO 8601 strings; `dateValue` reads them where modules read their data.
    @Test func dateValueReadsTheISOStringsDatesAreWrittenAs() {
        let written = JSONValue(Date(timeIntervalSince1970: 1_764_000_000))
        #expect(written.dateValue == Date(timeIntervalSince1970: 1_764_000_000))
        #expect(JSONValue.string("2025-11-02T14:45:00Z").dateValue == Timestamp.parse("2025-11-02T14:45:00Z"))
        #expect(JSONValue.string("yesterday").dateValue == nil)
        #expect(JSONValue.int(1_764_000_000).dateValue == nil, "a number is no date")
        #expect(JSONValue.null.dateValue == nil)
    }
}
