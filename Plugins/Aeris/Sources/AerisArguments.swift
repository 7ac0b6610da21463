import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsMoon
import Foundation

/// Reading the URN argument of `moon:{date}` (`phases:{count}` is `MoonData.phaseCount`).
enum AerisArguments {
    static let allowedDates = Timestamp.instantForms

    /// The instant `text` names (see `Timestamp.instant`): `moon:2026-12-04` is local noon.
    static func instant(_ text: String, now: Date, timeZone: TimeZone) throws(ConditionsError) -> Date {
        guard let date = Timestamp.instant(text, now: now, timeZone: timeZone) else {
            throw ConditionsError.invalidArguments(argument: "date", value: text, allowed: allowedDates)
        }
        return date
    }
}
