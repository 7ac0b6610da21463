import Testing
@testable import ConditionsCore

/// Durations as options and flags take them (`"ttl": "5m"`, `--since 7d`).
@Suite struct DurationTextTests {
    @Test(arguments: [("90", 90.0), ("90s", 90), ("5m", 300), ("6h", 21600), ("1d", 86400), ("1.5h", 5400), ("0", 0),
                      (" 5m ", 300), ("\t6h", 21600), ("\u{00A0}2s", 2)])
    func aNumberWithAnOptionalUnitIsSeconds(text: String, seconds: Double) {
        #expect(DurationText.seconds(text) == seconds, "\(text.debugDescription)")
    }

    @Test(arguments: ["", "s", "m", "-1", "-1s", "5x", "5 m", "abc", "inf", "nan", "1e400", "5m\n", "ss", "5ms"])
    func anythingElseIsNil(text: String) {
        #expect(DurationText.seconds(text) == nil, "\(text.debugDescription)")
    }
}
