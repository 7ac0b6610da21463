import ConditionsText
import Foundation

/// Calendar days in a place's zone from the zone's UTC offsets alone, as Foundation's
/// Gregorian `Calendar` would give them (`LocalDayTests` compares the two across years of
/// days, zones that move their clocks at midnight among them). `moon:now` asks only which day
/// an instant falls on and where that day begins; making a `Calendar` for that cost ~0.3 ms
/// of every local answer at its first use (docs/performance.md, "Issue 45").
struct LocalDay {
    let zone: TimeZone

    /// The place's zone, UTC when it names none.
    init(zone: TimeZone?) {
        self.zone = zone ?? .gmt
    }

    /// The day `date` falls on.
    func day(of date: Date) -> CivilDate {
        CivilDate(date, offsetSeconds: zone.secondsFromGMT(for: date))
    }

    /// Whether two instants fall on the same day.
    func isSameDay(_ first: Date, _ second: Date) -> Bool {
        day(of: first) == day(of: second)
    }

    /// The first instant of `day`: its local midnight (the earlier one where clocks go back
    /// over midnight), or where clocks go forward over midnight, the instant they do.
    func start(of day: CivilDate) -> Date {
        let midnight = Double(day.ordinal) * 86_400
        // Local midnight lies within 14 hours of midnight UTC; across that window at most one
        // change of offset happens, so the offsets at its two ends are the only candidates.
        let window = (Date(timeIntervalSince1970: midnight - 50_400), Date(timeIntervalSince1970: midnight + 50_400))
        let offsets = [zone.secondsFromGMT(for: window.0), zone.secondsFromGMT(for: window.1)]
        let valid = offsets.map { Date(timeIntervalSince1970: midnight - Double($0)) }
            .filter { Double(zone.secondsFromGMT(for: $0)) + $0.timeIntervalSince1970 == midnight }
        if let earliest = valid.min() { return earliest }
        // No instant reads 00:00: the day begins when the clocks jump past it.
        return zone.nextDaylightSavingTimeTransition(after: window.0) ?? Date(timeIntervalSince1970: midnight - Double(offsets[1]))
    }
}
