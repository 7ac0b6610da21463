import ConditionsKit
import Foundation

/// Reading the URN arguments of `moon:{date}` and `phases:{count}`.
enum AerisArguments {
    static let allowedDates = Timestamp.instantForms
    static let allowedCounts = "a whole number from 1 to 100"
    static let counts = 1...100

    /// The instant `text` names (see `Timestamp.instant`): `moon:2026-12-04` is local noon.
    static func instant(_ text: String, now: Date, timeZone: TimeZone) throws(ConditionsError) -> Date {
        guard let date = Timestamp.instant(text, now: now, timeZone: timeZone) else {
            throw ConditionsError.invalidArguments(argument: "date", value: text, allowed: allowedDates)
        }
        return date
    }

    /// The phase count: plain ASCII digits only, so `+5`, ` 5` and `5.0` are refused rather
    /// than guessed at.
    static func count(_ text: String) throws(ConditionsError) -> Int {
        guard !text.isEmpty, text.count <= 3, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let count = Int(text), counts.contains(count)
        else {
            throw ConditionsError.invalidArguments(argument: "count", value: text, allowed: allowedCounts)
        }
        return count
    }
}
