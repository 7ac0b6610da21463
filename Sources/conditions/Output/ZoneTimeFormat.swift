import Foundation

/// The renderer's three time patterns ("EEE MMM d HH:mm zzz", "EEE MMM d yyyy HH:mm zzz",
/// "HH:mm zzz") formatted by arithmetic from the zone's tzdata, byte for byte what an
/// en_US_POSIX `DateFormatter` prints. A `DateFormatter` loads ICU's locale and zone-name
/// data (~1.2 ms and 3.8 MiB at every start); this reads one small file.
///
/// `zzz` is where ICU and tzdata disagree: ICU's English short names exist only for the North
/// American metazones and UTC; every other zone prints as "GMT+1" or "GMT+5:30", whatever its
/// tzdata abbreviation ("CET", "IST"). Any case this cannot match for sure answers nil, and
/// the caller formats with Foundation: instants before 2000 (ICU's metazone history differs
/// from tzdata's abbreviations) or outside the file's transitions, Hawaii–Aleutian names
/// (ICU says "HAST" where tzdata says "HST"), offsets with seconds.
struct ZoneTimeFormat {
    private let zone: ZoneInfo

    /// 2000-01-01T00:00:00Z.
    static let earliest = Date(timeIntervalSince1970: 946_684_800)

    /// tzdata abbreviations ICU also prints in English, with the UTC offset they must come
    /// with (Havana's "CST" is UTC−5 and prints as "GMT-5"; Shanghai's is UTC+8).
    private static let sharedNames: [String: Int] = [
        "PST": -8, "PDT": -7, "MST": -7, "MDT": -6, "CST": -6, "CDT": -5, "EST": -5, "EDT": -4,
        "AKST": -9, "AKDT": -8, "AST": -4, "ADT": -3, "UTC": 0,
    ]

    init(zone: ZoneInfo) {
        self.zone = zone
    }

    /// The local civil time of `date`, or nil when this cannot format it exactly.
    func fields(_ date: Date) -> (fields: CivilTime, zoneName: String)? {
        // Zones without daylight saving answer for ever; Int64 conversion needs a bound (year ~33,000).
        guard date >= Self.earliest, date.timeIntervalSince1970 < 1e12, let period = zone.period(at: date),
              let name = Self.zoneName(period) else { return nil }
        let local = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(period.utcOffset)
        return (CivilTime(secondsSinceEpoch: local), name)
    }

    /// "EEE MMM d HH:mm zzz", with the year after the day when `withYear`, or "HH:mm zzz".
    func string(_ date: Date, withDate: Bool, currentYear: Int?) -> String? {
        guard let (time, zoneName) = fields(date) else { return nil }
        let clock = Self.twoDigits(time.hour) + ":" + Self.twoDigits(time.minute) + " " + zoneName
        guard withDate else { return clock }
        guard let currentYear else { return nil }
        let year = time.year == currentYear ? "" : "\(time.year) "
        return "\(Self.weekdays[time.weekday]) \(Self.months[time.month - 1]) \(time.day) \(year)\(clock)"
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// What ICU's `zzz` prints in English for this period, or nil where it is not certain.
    static func zoneName(_ period: ZoneInfo.Period) -> String? {
        let offset = period.utcOffset
        guard offset % 60 == 0 else { return nil }
        if let hours = sharedNames[period.abbreviation], hours * 3600 == offset { return period.abbreviation }
        if period.abbreviation == "HST" || period.abbreviation == "HDT" { return nil }
        // ICU's localized GMT format: "GMT", "GMT+1", "GMT-3:30".
        if offset == 0 { return "GMT" }
        let magnitude = abs(offset) / 60
        let minutes = magnitude % 60
        return "GMT" + (offset < 0 ? "-" : "+") + "\(magnitude / 60)" + (minutes == 0 ? "" : ":" + twoDigits(minutes))
    }
}

/// A proleptic Gregorian date and time of day from seconds since 1970-01-01T00:00 (local).
struct CivilTime {
    let year, month, day, hour, minute: Int
    /// 0 is Sunday.
    let weekday: Int

    init(secondsSinceEpoch seconds: Int64) {
        let (days, second) = Self.floorDivide(seconds, 86_400)
        hour = Int(second / 3600)
        minute = Int(second % 3600 / 60)
        // 1970-01-01 was a Thursday.
        weekday = Int((days % 7 + 11) % 7)
        // Howard Hinnant's days_from_civil inverted (civil_from_days), eras of 400 years from 0000-03-01.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }
}
