/// Durations as people write them in options and flags: `90`, `90s`, `5m`, `6h`, `1d`, `1.5h`.
package enum DurationText {
    /// Seconds, or nil when `text` is not a non-negative number with an optional s/m/h/d unit.
    /// Blanks around it (spaces and tabs, as `CharacterSet.whitespaces`) are ignored. Written
    /// without Foundation's trimming and a dictionary of units: every local answer reads a few
    /// durations, and their first use cost ~0.2 ms of its start (docs/performance.md, "Issue 45").
    package static func seconds(_ text: String) -> Double? {
        var number = Substring(text).drop(while: isBlank)
        while let last = number.last, isBlank(last) { number = number.dropLast() }
        var scale = 1.0
        switch number.last {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3600
        case "d": scale = 86400
        default: break
        }
        if scale != 1 || number.last == "s" { number = number.dropLast() }
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }

    private static func isBlank(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }
}
