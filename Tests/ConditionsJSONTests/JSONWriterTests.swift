@testable import ConditionsJSON
import Foundation
import Testing
import ConditionsKit

/// The writer: compact and pretty forms, safe string escaping, numbers that read as people expect.
@Suite struct JSONWriterTests {
    @Test func compactKeepsInsertionOrder() {
        let value: JSONValue = ["id": "snoqualmie", "elevationFt": 3022, "open": true, "advisory": nil, "temp": -1.5, "tags": ["a", 2]]
        #expect(value.serialized() == #"{"id":"snoqualmie","elevationFt":3022,"open":true,"advisory":null,"temp":-1.5,"tags":["a",2]}"#)
        #expect(value.description == value.serialized())
    }

    @Test func pretty() {
        let value: JSONValue = ["a": [1, ["b": nil]], "c": [:], "d": []]
        let expected = """
            {
              "a": [
                1,
                {
                  "b": null
                }
              ],
              "c": {},
              "d": []
            }
            """
        #expect(value.serialized(pretty: true) == expected)
    }

    @Test(arguments: [
        (JSONValue.string("q\"b\\s/"), #""q\"b\\s/""#),
        (.string("\n\r\t\u{08}\u{0C}"), #""\n\r\t\b\f""#),
        (.string("\u{0}\u{1}\u{1F}"), #""\u0000\u0001\u001F""#),
        (.string("a\u{7F}b"), #""a\u007Fb""#),
        (.string("line\u{2028}sep\u{2029}"), #""line\u2028sep\u2029""#),
        (.string("\u{1B}[31mred"), #""\u001B[31mred""#),
        (.string("café 🌕"), "\"café 🌕\""),
    ])
    func stringEscaping(value: JSONValue, expected: String) throws {
        let text = value.serialized()
        #expect(text == expected)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(try JSONValue.parse(text) == value)
    }

    @Test func keysAreEscapedToo() {
        let value = JSONValue.object(JSONObject([("a\"\n", .int(1))]))
        #expect(value.serialized() == #"{"a\"\n":1}"#)
    }

    @Test(arguments: [
        (JSONValue.double(31), "31"),
        (.double(-0.0), "0"),
        (.double(0.1), "0.1"),
        (.double(87.4), "87.4"),
        (.double(-122.3331), "-122.3331"),
        (.double(1e300), "1e+300"),
        (.int(9_007_199_254_740_993), "9007199254740993"),
        (.int(Int.min), "-9223372036854775808"),
    ])
    func numbers(value: JSONValue, expected: String) {
        #expect(value.serialized() == expected)
    }

    @Test func nonFiniteDoublesBecomeNull() {
        let value: JSONValue = [.double(.infinity), .double(-.infinity), .double(.nan)]
        #expect(value.serialized() == "[null,null,null]")
        #expect(JSONValue(Double.nan) == .null)
        #expect(JSONValue(Double.infinity) == .null)
        #expect(JSONValue(2.5 as Double?) == .double(2.5))
    }

    @Test func roundTrips() throws {
        let values: [JSONValue] = [
            .null, true, false, 0, -1, 1.25, 1e-7, "", "x",
            [], [:], [[[]]],
            ["passes": [["id": "white", "status": "open", "restrictions": [["direction": "Eastbound", "text": "No restrictions"]]]], "count": 1, "ratio": 0.5],
            ["z": 1, "a": ["m": "\u{2028}\u{0}\"\\", "b": nil]],
            .double(Double.greatestFiniteMagnitude), .double(-Double.leastNonzeroMagnitude),
        ]
        for value in values {
            #expect(try JSONValue.parse(value.serialized()) == value)
            #expect(try JSONValue.parse(value.serialized(pretty: true)) == value)
        }
    }

    @Test func realFixtureRoundTripsByteForByte() throws {
        let line = #"{"urn":"moon:now","route":"moon:now","source":"astronomy","fetchedAt":"2026-11-21T14:05:00Z","data":{"phase":"waxing gibbous","illumination":87.4,"age":12.29,"cycle":0.4162,"rise":"2026-11-21T22:07:00Z","set":"2026-11-21T15:02:00Z","location":{"name":"Seattle","latitude":47.6097,"longitude":-122.3331,"timeZone":"America/Los_Angeles"}}}"#
        #expect(try JSONValue.parse(line).serialized() == line)
    }
}
