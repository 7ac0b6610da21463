import ConditionsText
import ConditionsKit

/// The POSIX TZ string in a TZif file's footer (RFC 8536 §3.3), which gives a zone's local time
/// for every instant after the file's last transition: `PST8PDT,M3.2.0,M11.1.0`, `<-03>3`,
/// `IST-5:30`, `IST-1GMT0,M10.5.0,M3.5.0/1` (Dublin: "daylight" time is the winter's),
/// `<-04>4<-03>,M9.1.6/24,M4.1.6/24` (RFC 8536's hours beyond 24 and below 0).
struct PosixZoneRule: Equatable, Sendable {
    /// The standard period: the whole year when there is no `daylight`.
    let standard: ZoneHistory.Period
    let daylight: Daylight?

    struct Daylight: Equatable, Sendable {
        let period: ZoneHistory.Period
        /// When daylight time starts, in standard local time.
        let start: Change
        /// When it ends, in daylight local time.
        let end: Change
    }

    /// A change of period: a day of the year and a local time of day.
    struct Change: Equatable, Sendable {
        enum Day: Equatable, Sendable {
            /// `Jn`: 1…365, February 29 never counted.
            case julian(Int)
            /// `n`: 0…365, February 29 counted in leap years.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (1…4, 5 the last) of month `m`.
            case monthWeekday(month: Int, week: Int, weekday: Int)
        }

        let day: Day
        /// Seconds after local midnight of `day`, −167…167 hours.
        let time: Int

        /// The change in `year` as seconds since the epoch, for local time `utcOffset` east of UTC.
        func instant(in year: Int, utcOffset: Int) -> Int64 {
            let newYear = CivilTime.days(year: year, month: 1, day: 1)
            let date: Int64
            switch day {
            case .julian(let n):
                date = newYear + Int64(n - 1) + (CivilCalendar.isLeapYear(year) && n >= 60 ? 1 : 0)
            case .zeroBased(let n):
                date = newYear + Int64(n)
            case .monthWeekday(let month, let week, let weekday):
                let first = CivilTime.days(year: year, month: month, day: 1)
                var day = (weekday - CivilTime.weekday(ofDay: first) + 7) % 7 + 7 * (week - 1)
                while day >= CivilTime.daysInMonth(month, of: year) { day -= 7 }
                date = first + Int64(day)
            }
            return date * 86_400 + Int64(time) - Int64(utcOffset)
        }
    }

    /// The period in force at `seconds` since the epoch.
    func period(at seconds: Int64) -> ZoneHistory.Period {
        guard let daylight else { return standard }
        let year = CivilTime(secondsSinceEpoch: seconds + Int64(standard.utcOffset)).year
        let start = daylight.start.instant(in: year, utcOffset: standard.utcOffset)
        let end = daylight.end.instant(in: year, utcOffset: daylight.period.utcOffset)
        // South of the equator (and in Dublin) daylight time spans the new year.
        let isDaylight = start < end ? (start <= seconds && seconds < end) : !(end <= seconds && seconds < start)
        return isDaylight ? daylight.period : standard
    }

    /// Parses a footer; nil for anything that is not a complete TZ string of this form (then
    /// the caller keeps the file's last period).
    init?(_ text: some Collection<UInt8>) {
        var scanner = Scanner(bytes: Array(text))
        guard let standardName = scanner.name(), let standardOffset = scanner.offset(maxHours: 24) else { return nil }
        // POSIX offsets are west of Greenwich; periods count east.
        standard = ZoneHistory.Period(utcOffset: -standardOffset, abbreviation: standardName)
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard let daylightName = scanner.name() else { return nil }
        let daylightOffset = scanner.startsOffset ? scanner.offset(maxHours: 24).map { -$0 } : standard.utcOffset + 3600
        // zic always writes the rules; without them POSIX leaves the dates to the implementation.
        guard let daylightOffset, scanner.eat(UInt8(ascii: ",")), let start = scanner.change(),
              scanner.eat(UInt8(ascii: ",")), let end = scanner.change(), scanner.atEnd else { return nil }
        daylight = Daylight(period: ZoneHistory.Period(utcOffset: daylightOffset, abbreviation: daylightName), start: start, end: end)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }
        private var next: UInt8? { position < bytes.count ? bytes[position] : nil }

        var startsOffset: Bool {
            guard let next else { return false }
            return next == UInt8(ascii: "+") || next == UInt8(ascii: "-") || Self.isDigit(next)
        }

        mutating func eat(_ byte: UInt8) -> Bool {
            guard next == byte else { return false }
            position += 1
            return true
        }

        /// `PST`, or `<-03>` quoted (letters, digits, signs); at least three characters.
        mutating func name() -> String? {
            let quoted = eat(UInt8(ascii: "<"))
            let start = position
            while let byte = next, Self.isLetter(byte) || (quoted && (Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"))) {
                position += 1
            }
            let name = bytes[start..<position]
            guard name.count >= 3, !quoted || eat(UInt8(ascii: ">")) else { return nil }
            return String(decoding: name, as: UTF8.self)
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func offset(maxHours: Int) -> Int? {
            let sign = eat(UInt8(ascii: "-")) ? -1 : 1
            if sign == 1 { _ = eat(UInt8(ascii: "+")) }
            guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
            var seconds = hours * 3600
            if eat(UInt8(ascii: ":")) {
                guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
                seconds += minutes * 60
                if eat(UInt8(ascii: ":")) {
                    guard let extra = number(maxDigits: 2), extra < 60 else { return nil }
                    seconds += extra
                }
            }
            return sign * seconds
        }

        /// `Jn`, `n` or `Mm.w.d`, then an optional `/time` (02:00 when absent).
        mutating func change() -> Change? {
            let day: Change.Day
            if eat(UInt8(ascii: "J")) {
                guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else if eat(UInt8(ascii: "M")) {
                guard let month = number(maxDigits: 2), (1...12).contains(month), eat(UInt8(ascii: ".")),
                      let week = number(maxDigits: 1), (1...5).contains(week), eat(UInt8(ascii: ".")),
                      let weekday = number(maxDigits: 1), (0...6).contains(weekday) else { return nil }
                day = .monthWeekday(month: month, week: week, weekday: weekday)
            } else {
                guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            guard eat(UInt8(ascii: "/")) else { return Change(day: day, time: 7200) }
            guard let time = offset(maxHours: 167) else { return nil }
            return Change(day: day, time: time)
        }

        private mutating func number(maxDigits: Int) -> Int? {
            let start = position
            var value = 0
            while let byte = next, Self.isDigit(byte), position - start < maxDigits {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                position += 1
            }
            return position > start ? value : nil
        }

        private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        private static func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }
    }
}
