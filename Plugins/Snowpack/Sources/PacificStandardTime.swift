import ConditionsText
import Foundation

/// AWDB's hourly clock: every SNOTEL station in Washington reports in Pacific *Standard* Time,
/// UTC−8, all year (the station list's `dataTimeZone: -8`), with no daylight saving. Hours are
/// read with a fixed −8 offset, never through America/Los_Angeles, which would put a July
/// reading an hour early.
enum PacificStandardTime {
    /// Seconds east of UTC: −8 hours.
    static let offset = -8 * 3600

    /// The day `instant` falls on in PST.
    static func day(_ instant: Date) -> CivilDate { CivilDate(instant, offsetSeconds: offset) }

    /// `YYYY-MM-DD HH:mm` (AWDB's hourly `date`; `:ss` tolerated) as the instant it names in
    /// PST; nil for anything else or an impossible date.
    static func instant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16 || bytes.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), hour < 24, minute < 60,
              let date = CivilDate(year: year, month: month, day: day)
        else { return nil }
        var second = 0
        if bytes.count == 19 {
            guard bytes[16] == UInt8(ascii: ":"), let s = number(17..<19), s < 60 else { return nil }
            second = s
        }
        let local = date.ordinal * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(local - offset))
    }

    /// `2026-11-26T10:00:00-08:00`: the instant as PST wall time with its offset.
    static func isoString(_ instant: Date) -> String {
        let seconds = Int((instant.timeIntervalSince1970 + Double(offset)).rounded(.down))
        let day = CivilDate(ordinal: Int((Double(seconds) / 86_400).rounded(.down)))
        let within = seconds - day.ordinal * 86_400
        return day.iso + String(format: "T%02d:%02d:%02d-08:00", within / 3600, within % 3600 / 60, within % 60)
    }

    /// `2026-11-26 10:00`: the form AWDB's hourly dates and query dates take.
    static func wallTime(_ instant: Date) -> String {
        let iso = isoString(instant)
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5))
    }
}
