import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

/// The instants WSDOT's feeds write: `DateUpdated` as a WCF JSON date string (the Traveler
/// API) or as an array of Pacific local time parts (the mobile feed), and ISO 8601 text,
/// which neither uses yet but a rewrite of either easily could.
enum FeedDate {
    /// The instant `value` names, local parts read in `timeZone`; nil when it is none of the forms.
    static func instant(_ value: JSONValue, timeZone: TimeZone) -> Date? {
        if let parts = value.arrayValue { return localParts(parts, timeZone: timeZone) }
        guard let text = value.stringValue else { return nil }
        return wcf(text) ?? Timestamp.parse(text.trimmingCharacters(in: .whitespaces), timeZone: timeZone)
    }

    /// `[2025, 11, 3, 11, 30, 43, 853, 0, 0]`: year, month (1–12), day, hour, minute, second,
    /// millisecond, then members the apps ignore. Year to minute are required; a repeated
    /// hour (when daylight saving ends) is read as the earlier instant, as page times are.
    static func localParts(_ parts: [JSONValue], timeZone: TimeZone) -> Date? {
        let numbers = parts.prefix(7).map(\.intValue)
        guard numbers.count >= 5, numbers.allSatisfy({ $0 != nil }) else { return nil }
        let values = numbers.compactMap { $0 }
        let (year, month, day, hour, minute) = (values[0], values[1], values[2], values[3], values[4])
        let second = values.count > 5 ? values[5] : 0
        let millisecond = values.count > 6 ? values[6] : 0
        guard (1900...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second), (0...999).contains(millisecond)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date.addingTimeInterval(Double(millisecond) / 1000)
    }

    /// The instant of a WCF JSON date, `/Date(1765784463873-0800)/`: milliseconds since the
    /// Unix epoch in UTC, then an optional offset naming the publisher's zone, which does not
    /// shift the instant (so it is checked for form and otherwise ignored).
    /// Read by hand, not with a Regex literal, which is compiled again on every call (15 per feed).
    static func wcf(_ text: String) -> Date? {
        var body = Substring(text)
        while let first = body.first, first.isWhitespace { body = body.dropFirst() }
        while let last = body.last, last.isWhitespace { body = body.dropLast() }
        if body.hasPrefix("\\") { body = body.dropFirst() }
        guard body.hasPrefix("/Date("), body.hasSuffix("/") else { return nil }
        body = body.dropFirst(6).dropLast()
        if body.hasSuffix("\\") { body = body.dropLast() }
        guard body.hasSuffix(")") else { return nil }
        let bytes = Array(body.dropLast().utf8)
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        var index = bytes.first == UInt8(ascii: "-") ? 1 : 0
        let digitsStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard (1...15).contains(index - digitsStart), let milliseconds = Int64(String(decoding: bytes[0..<index], as: UTF8.self)) else { return nil }
        if index < bytes.count {
            let offset = bytes[index...]
            guard offset.count == 5, offset.first == UInt8(ascii: "+") || offset.first == UInt8(ascii: "-"), offset.dropFirst().allSatisfy(isDigit) else { return nil }
            let digits = offset.dropFirst().map { Int($0 - UInt8(ascii: "0")) }
            guard digits[0] * 10 + digits[1] <= 14, digits[2] * 10 + digits[3] < 60 else { return nil }
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
