import Foundation

/// The text output's local times: "06:30 PST", "Sat Nov 21 06:30 PST" (the year after the day
/// only when it is not the current one), "Sat Nov 21 2026".
///
/// Where the system's tz database has the zone (`ZoneHistory`), the clock and the abbreviation
/// both come from it, so they always agree and are right for every date it covers: "PDT" in
/// Seattle in 1950, "CEST" in Berlin, "-03" in São Paulo (the database's name for a zone without
/// letters). Otherwise — a zone made from an offset, a machine without tzdata — Foundation's
/// `DateFormatter` formats as before (ICU's names: "GMT-7" before about 1970, "GMT+1" in Berlin).
final class LocalTimeFormats {
    private let timeZone: TimeZone
    /// Read on first use, once per renderer (a report, a server's dashboard): a few KiB.
    private lazy var history: ZoneHistory? = ZoneHistory(identifier: timeZone.identifier)
    private lazy var currentYear: Int = local(Date())?.time.year ?? calendar.component(.year, from: Date())
    private var formatters: [String: DateFormatter] = [:]
    private lazy var calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }()

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// "06:30 PST", or with the day: "Sat Nov 21 06:30 PST", "Sat Nov 21 2031 06:30 PST".
    func string(_ date: Date, withDate: Bool) -> String {
        guard let (time, abbreviation) = local(date) else { return formatted(date, withDate: withDate) }
        let clock = Self.twoDigits(time.hour) + ":" + Self.twoDigits(time.minute) + " " + abbreviation
        guard withDate else { return clock }
        return Self.day(time, withYear: time.year != currentYear) + " " + clock
    }

    /// "Sat Nov 21 2026": the local day.
    func day(_ date: Date) -> String {
        guard let (time, _) = local(date) else { return formatted(date, pattern: "EEE MMM d yyyy") }
        return Self.day(time, withYear: true)
    }

    /// The local civil time and zone abbreviation at `date` from the tz database; nil without
    /// the zone's file, and for years that "yyyy" would not print as four digits or more.
    private func local(_ date: Date) -> (time: CivilTime, abbreviation: String)? {
        guard let history else { return nil }
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // ±10^15 s is 30 million years: far beyond any date, far within Int64.
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        let period = history.period(at: Int64(seconds))
        let time = CivilTime(secondsSinceEpoch: Int64(seconds) + Int64(period.utcOffset))
        guard time.year >= 1 else { return nil }
        return (time, period.abbreviation)
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func day(_ time: CivilTime, withYear: Bool) -> String {
        let day = weekdays[time.weekday] + " " + months[time.month - 1] + " \(time.day)"
        guard withYear else { return day }
        let year = String(time.year)
        return day + " " + String(repeating: "0", count: max(0, 4 - year.count)) + year
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    // MARK: Foundation, where the tz database does not have the zone

    private func formatted(_ date: Date, withDate: Bool) -> String {
        guard withDate else { return formatted(date, pattern: "HH:mm zzz") }
        let sameYear = calendar.component(.year, from: date) == currentYear
        return formatted(date, pattern: sameYear ? "EEE MMM d HH:mm zzz" : "EEE MMM d yyyy HH:mm zzz")
    }

    /// One `DateFormatter` per pattern, made on first use (creating one opens an ICU formatter).
    private func formatted(_ date: Date, pattern: String) -> String {
        if let formatter = formatters[pattern] { return formatter.string(from: date) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        formatters[pattern] = formatter
        return formatter.string(from: date)
    }
}
