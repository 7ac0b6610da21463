@testable import ConditionsJSON
import Foundation
import Testing
import ConditionsKit

/// The hand-written parser: exact values, key order, strict strings, positioned errors, bounded depth.
@Suite struct JSONParserTests {
    @discardableResult
    private func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONParseError? {
        #expect(throws: JSONParseError.self, sourceLocation: sourceLocation) { try JSONValue.parse(text) }
    }

    @discardableResult
    private func parseError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> JSONParseError? {
        #expect(throws: JSONParseError.self, sourceLocation: sourceLocation) { try JSONValue.parse(Data(bytes)) }
    }

    @Test func scalars() throws {
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse("true") == .bool(true))
        #expect(try JSONValue.parse(" false ") == .bool(false))
        #expect(try JSONValue.parse("\"x\"") == .string("x"))
        #expect(try JSONValue.parse("0") == .int(0))
        #expect(try JSONValue.parse("-12") == .int(-12))
        #expect(try JSONValue.parse("\t\r\n[ ]\n") == .array([]))
        #expect(try JSONValue.parse("{ }") == .object(JSONObject()))
    }

    @Test func nestedDocument() throws {
        let text = #"{"id":"snoqualmie","elevationFt":3022,"open":false,"temp":-1.5,"restrictions":[{"direction":"Eastbound"},null],"advisory":null}"#
        let value = try JSONValue.parse(text)
        #expect(value["id"] == "snoqualmie")
        #expect(value["elevationFt"] == .int(3022))
        #expect(value["open"] == .bool(false))
        #expect(value["temp"] == .double(-1.5))
        #expect(value["restrictions"]?.arrayValue?.first?["direction"] == "Eastbound")
        #expect(value["restrictions"]?.arrayValue?.last == .null)
        #expect(value["advisory"]?.isNull == true)
        #expect(value["missing"] == nil)
    }

    @Test func objectKeyOrderIsKept() throws {
        let value = try JSONValue.parse(#"{"zulu":1,"alpha":2,"mike":{"y":1,"b":2}}"#)
        #expect(value.objectValue?.keys == ["zulu", "alpha", "mike"])
        #expect(value["mike"]?.objectValue?.keys == ["y", "b"])
    }

    @Test func repeatedKeyKeepsFirstPositionAndLastValue() throws {
        let value = try JSONValue.parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == .int(3))
    }

    @Test func integersStayExact() throws {
        // 2^53 + 1 is not representable as a Double.
        #expect(try JSONValue.parse("9007199254740993") == .int(9_007_199_254_740_993))
        #expect(try JSONValue.parse("[9007199254740993]").serialized() == "[9007199254740993]")
        #expect(try JSONValue.parse(String(Int.max)) == .int(Int.max))
        #expect(try JSONValue.parse(String(Int.min)) == .int(Int.min))
        #expect(try JSONValue.parse("-0") == .int(0))
        // Beyond Int the value is still a number, as a double.
        #expect(try JSONValue.parse("18446744073709551616") == .double(18_446_744_073_709_551_616.0))
    }

    @Test func doubles() throws {
        #expect(try JSONValue.parse("0.1") == .double(0.1))
        #expect(try JSONValue.parse("1.0") == .double(1.0))
        #expect(try JSONValue.parse("1e2") == .double(100))
        #expect(try JSONValue.parse("-1.5E-3") == .double(-0.0015))
        #expect(try JSONValue.parse("2.5e+1") == .double(25))
        #expect(try JSONValue.parse("47.6097") == .double(47.6097))
        #expect(try JSONValue.parse("-122.3331") == .double(-122.3331))
        #expect(try JSONValue.parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
    }

    @Test(arguments: ["01", "-01", "1.", ".5", "-", "1e", "1e+", "+1", "1.e3", "NaN", "Infinity", "-Infinity", "0x10", "1e999", "-1e999"])
    func invalidNumbers(text: String) {
        parseError(text)
    }

    @Test func escapes() throws {
        let value = try JSONValue.parse(#""q\" b\\ s\/ \b\f\n\r\t \u00e9 \u00E9 \u0000 \ud83c\udf15""#)
        #expect(value == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t é é \u{0} 🌕"))
    }

    @Test func rawUnicodePassesThrough() throws {
        #expect(try JSONValue.parse("\"café 🌕 \u{2028}\"") == .string("café 🌕 \u{2028}"))
    }

    @Test(arguments: [#""\ud83c""#, #""\ud83cx""#, #""\ud83c\u0041""#, #""\udf15""#, #""\udf15\ud83c""#, #""\ud83c\ud83c""#])
    func loneSurrogatesAreRejected(text: String) {
        parseError(text)
    }

    @Test(arguments: [#""\x""#, #""\u12""#, #""\u12G4""#, #""\U0041""#, #""\'""#, #""\"#, #""abc"#])
    func invalidEscapesAndUnterminatedStrings(text: String) {
        parseError(text)
    }

    @Test func unterminatedStringPointsAtItsStart() {
        let error = parseError("[1, \"abc")
        #expect(error?.line == 1)
        #expect(error?.column == 5)
        #expect(error?.reason == "unterminated string")
    }

    @Test(arguments: [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0x61, 0x5C, 0x6E, 0xE9, 0x22]] as [[UInt8]])
    func invalidUTF8InStringsIsRejected(bytes: [UInt8]) {
        #expect(parseError(bytes)?.reason.contains("UTF-8") == true)
    }

    @Test func invalidUTF8OutsideStringsIsRejected() {
        #expect(parseError([0x5B, 0xFF, 0x5D])?.reason.contains("0xFF") == true)
    }

    @Test(arguments: [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F] as [UInt8])
    func rawControlCharactersInStringsAreRejected(byte: UInt8) {
        let error = parseError([0x22, 0x61, byte, 0x62, 0x22])
        #expect(error?.reason.contains("control character") == true)
        #expect(error?.column == 3)
    }

    @Test func deleteIsAllowedRaw() throws {
        #expect(try JSONValue.parse(Data([0x22, 0x7F, 0x22])) == .string("\u{7F}"))
    }

    @Test func byteOrderMarkIsTolerated() throws {
        #expect(try JSONValue.parse(Data([0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8))) == ["a": 1])
        #expect(try JSONValue.parse("\u{FEFF}[true]") == [true])
        // Only at the very start.
        parseError("[\u{FEFF}1]")
        #expect(parseError([0xEF, 0xBB, 0xBF])?.reason == "the document is empty")
    }

    @Test func trailingCommaInArrayIsPositioned() {
        // Line 3 is four spaces then ']', so the ']' is at line 3, column 5.
        let text = "{\n  \"a\": [1,\n    ]\n}\n"
        let error = parseError(text)
        #expect(error?.line == 3)
        #expect(error?.column == 5)
        #expect(error?.reason == "unexpected ']', expected a value")
        #expect(error?.description == "line 3, column 5: unexpected ']', expected a value")
    }

    @Test func trailingCommaInObjectIsPositioned() {
        // The '}' that follows the comma opens line 4.
        let text = "{\n  \"a\": 1,\n  \"b\": 2,\n}"
        let error = parseError(text)
        #expect(error?.line == 4)
        #expect(error?.column == 1)
        #expect(error?.reason.contains("member name") == true)
    }

    @Test func columnsCountBytes() {
        // '{' '"' 'é'(2 bytes) '"' ':' ' ' then 'x' is byte 8.
        let error = parseError("{\"é\": x}")
        #expect(error?.line == 1)
        #expect(error?.column == 8)
    }

    @Test func crLfLinesAreCounted() {
        let error = parseError("[\r\n1,\r\n  oops]")
        #expect(error?.line == 3)
        #expect(error?.column == 3)
    }

    @Test(arguments: [
        ("", "the document is empty"),
        ("   ", "the document is empty"),
        ("{} x", "unexpected 'x' after the end of the document"),
        ("[1 2]", "unexpected '2', expected ',' or ']'"),
        ("{\"a\" 1}", "unexpected '1', expected ':' after member name \"a\""),
        ("{a:1}", "unexpected 'a', expected a member name in double quotes"),
        ("{\"a\":1 \"b\":2}", "unexpected '\"', expected ',' or '}'"),
        ("[1,", "unexpected end of input, expected a value"),
        ("[", "unexpected end of input, expected a value"),
        ("{\"a\":1", "unexpected end of input, expected ',' or '}'"),
        ("tru", "invalid literal, expected 'true'"),
        ("nul", "invalid literal, expected 'null'"),
        ("[,1]", "unexpected ',', expected a value"),
    ] as [(String, String)])
    func malformedDocuments(text: String, reason: String) {
        #expect(parseError(text)?.reason == reason)
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let depth = JSONValue.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONValue.parse(text)
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            value = elements.first ?? .null
        }
        #expect(levels == depth)
    }

    @Test func nestingBeyondTheLimitIsAnError() {
        let depth = JSONValue.maximumDepth + 1
        let error = parseError(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        #expect(error?.reason.contains("nesting deeper than") == true)
        #expect(error?.column == depth)
    }

    @Test func hostileNestingIsAnErrorNotACrash() {
        #expect(parseError(String(repeating: "[", count: 10_000))?.reason.contains("nesting") == true)
        #expect(parseError(String(repeating: "{\"a\":", count: 10_000))?.reason.contains("nesting") == true)
        #expect(parseError(String(repeating: "[{\"a\":", count: 5_000))?.reason.contains("nesting") == true)
    }
}

/// Objects are hash-indexed and ordered: a wide object keeps every member in order and finds
/// each by name (its speed is a `conditions-bench` figure, scenario 4).
@Suite struct WideObjectTests {
    @Test func aHundredThousandMembersKeepOrderAndLookUp() throws {
        let text = "{" + (0..<100_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        let object = try #require(try JSONValue.parse(text).objectValue)
        #expect(object.count == 100_000)
        #expect(object.keys.prefix(3) == ["k0", "k1", "k2"] && object.keys.last == "k99999")
        #expect(object["k54321"] == .int(54321))
        #expect(JSONValue.object(object).serialized() == text)
    }

    @Test func assigningKeepsThePositionAndNilRemoves() {
        var object = JSONObject([("a", 1), ("b", 2), ("c", 3)])
        object["b"] = "two"
        object["a"] = nil
        object["d"] = 4
        #expect(object.keys == ["b", "c", "d"])
        #expect(JSONValue.object(object).serialized() == #"{"b":"two","c":3,"d":4}"#)
    }
}
