import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

/// Reads the local "last update" text of a pass page ("Saturday November 5, 1955 9:41 AM",
/// "11/21/2026 5:30 AM") as an instant, in the page's zone (Pacific, daylight saving aware).
enum LocalTimeText {
    /// The instant `text` names in `timeZone`, or nil when it is not one of the known forms.
    ///
    /// Accepted: an optional label ("Last updated:"), an optional weekday (not checked against
    /// the date), a month name or abbreviation, day and four-digit year, or `M/D/YYYY`; then a
    /// time `H:MM` or `H:MM:SS` with AM/PM (or 24-hour without), and an optional trailing zone
    /// abbreviation (PST, PDT, PT), which is ignored because `timeZone` already knows the
    /// offset. ISO 8601 text is accepted too. A time in the repeated hour when daylight
    /// saving ends (1:30 AM on the first Sunday of November) is read as the earlier instant.
    static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        guard let cleaned = Text.normalized(text) else { return nil }
        if let iso = Timestamp.parse(cleaned, timeZone: timeZone) { return iso }

        var words = cleaned.lowercased()
            .replacingOccurrences(of: ",", with: " ")
            .replacingOccurrences(of: "a.m.", with: "am")
            .replacingOccurrences(of: "p.m.", with: "pm")
            .split(separator: " ").map(String.init)
        while let first = words.first, first.hasSuffix(":") || ["last", "updated", "update", "as", "of"].contains(first) {
            words.removeFirst()
        }
        if let first = words.first, weekdays.contains(where: { first.hasPrefix($0) }) { words.removeFirst() }
        if let last = words.last, ["pst", "pdt", "pt"].contains(last) { words.removeLast() }
        words.removeAll { $0 == "at" }

        var components = DateComponents()
        var rest = words[...]
        if let first = rest.first, first.contains("/") {
            let parts = first.split(separator: "/")
            guard parts.count == 3, let month = number(parts[0]), let day = number(parts[1]), let year = number(parts[2]), parts[2].count == 4 else { return nil }
            (components.month, components.day, components.year) = (month, day, year)
            rest = rest.dropFirst()
        } else {
            guard rest.count >= 3, let month = monthNumber(rest[rest.startIndex]),
                  let day = number(rest[rest.startIndex + 1]), let year = number(rest[rest.startIndex + 2]),
                  rest[rest.startIndex + 2].count == 4
            else { return nil }
            (components.month, components.day, components.year) = (month, day, year)
            rest = rest.dropFirst(3)
        }
        var clock: Substring
        var meridiem: String?
        switch rest.count {
        case 1:
            clock = Substring(rest[rest.startIndex])
            // "9:41AM": the meridiem glued to the time.
            if clock.hasSuffix("am") || clock.hasSuffix("pm") {
                meridiem = String(clock.suffix(2))
                clock = clock.dropLast(2)
            }
        case 2:
            clock = Substring(rest[rest.startIndex])
            meridiem = rest[rest.startIndex + 1]
        default:
            return nil
        }
        let fields = clock.split(separator: ":")
        guard (2...3).contains(fields.count), let hour = number(fields[0]), let minute = number(fields[1]),
              fields[1].count == 2, minute < 60
        else { return nil }
        let second = fields.count == 3 ? number(fields[2]) : 0
        guard let second, second < 60 else { return nil }
        switch meridiem {
        case nil:
            guard hour < 24 else { return nil }
            components.hour = hour
        case "am"?, "pm"?:
            guard (1...12).contains(hour) else { return nil }
            components.hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        default:
            return nil
        }
        components.minute = minute
        components.second = second

        guard let month = components.month, (1...12).contains(month), let day = components.day, (1...31).contains(day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date
    }

    /// The value of a run of ASCII digits (no sign, no spaces); nil otherwise.
    private static func number(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.count <= 4, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    private static let weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// 1…12 for a month name or abbreviation ("november", "nov", "nov.", "sept").
    private static func monthNumber(_ word: String) -> Int? {
        let bare = word.hasSuffix(".") ? String(word.dropLast()) : word
        guard bare.count >= 3, let index = months.firstIndex(where: { bare.hasPrefix($0) }) else { return nil }
        let full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"][index]
        guard full.hasPrefix(bare) || bare == "sept" else { return nil }
        return index + 1
    }
}
