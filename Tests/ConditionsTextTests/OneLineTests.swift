import ConditionsText
import Testing

/// `String.oneLine`: the one cleaner upstream text goes through before a message or a label
/// quotes it (NWS's problem details, Exec's stderr, WSDOT's texts).
@Suite struct OneLineTests {
    @Test(arguments: [
        ("  Bare and\twet.\n\nSnow  ", "Bare and wet. Snow"),
        ("a\u{00A0}b\u{200B}c", "a b c"),           // non-breaking and zero-width spaces
        ("line\u{2028}next\u{2029}end", "line next end"),
        ("bell\u{07}and\u{1B}[31mescape", "bell and [31mescape"),
        ("", ""),
        (" \n\t ", ""),
    ])
    func collapsesWhiteSpaceAndControlCharacters(text: String, expected: String) {
        #expect(text.oneLine() == expected)
    }

    @Test func cutsAfterTheLimitOnlyWhenMoreFollows() {
        #expect("abcdef".oneLine(limit: 3) == "abc…")
        #expect("abc".oneLine(limit: 3) == "abc")
        #expect("abc   ".oneLine(limit: 3) == "abc", "trailing space is not more text")
        #expect("ab cd".oneLine(limit: 3) == "ab …")
    }
}
