import ConditionsKit
import Foundation

/// Reading the URN arguments of `moon:{date}` and `phases:{count}`.
enum AerisArguments {
    static let allowedDates = "an ISO 8601 date or date-time such as 2026-12-04 or 2026-12-04T18:00:00Z, or now"
    static let allowedCounts = "a whole number from 1 to 100"
    static let counts = 1...100

    /// The instant `text` names: `now` is the context's clock; a date without an offset is
    /// read in the place's zone, so `moon:2026-12-04` means local midnight there.
    static func instant(_ text: String, now: Date, timeZone: TimeZone) throws(ConditionsError) -> Date {
        if text.lowercased() == "now" { return now }
        guard let date = Timestamp.parse(text, timeZone: timeZone) else {
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
