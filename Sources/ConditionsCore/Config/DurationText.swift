/// Durations as people write them in options and flags: `90`, `90s`, `5m`, `6h`, `1d`, `1.5h`.
package enum DurationText {
    /// Seconds, or nil when `text` is not a non-negative number with an optional s/m/h/d unit.
    package static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = Substring(text.trimmingCharacters(in: .whitespaces))
        var scale = 1.0
        if let last = number.last, let unit = units[last] { scale = unit; number = number.dropLast() }
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }
}

import Foundation
