import Foundation
import Testing
@testable import conditions

/// The hand formatter against ICU's `DateFormatter` (what the renderer used before and still
/// falls back to): every answer it gives must be byte-identical, and it must decline the
/// cases it cannot match.
@Suite struct ZoneTimeFormatTests {
    static let zones = ["America/Los_Angeles", "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix",
                        "America/Anchorage", "America/Halifax", "America/St_Johns", "America/Havana", "Europe/Berlin",
                        "Europe/London", "Europe/Dublin", "Australia/Sydney", "Asia/Kolkata", "Asia/Kathmandu",
                        "Asia/Shanghai", "Asia/Tokyo", "Pacific/Honolulu", "America/Adak", "UTC", "Etc/UTC", "GMT"]
    static let patterns = ["EEE MMM d HH:mm zzz", "EEE MMM d yyyy HH:mm zzz", "HH:mm zzz"]

    static func icu(_ zone: TimeZone) -> [String: DateFormatter] {
        Dictionary(uniqueKeysWithValues: patterns.map { pattern in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = pattern
            return (pattern, formatter)
        })
    }

    /// Instants from 1995 to 2040 at an irregular stride, plus a second either side of every DST change.
    static func instants(in zone: TimeZone) -> [Date] {
        var dates: [Date] = []
        var time = 788_918_400.0 // 1995-01-01
        while time < 2_208_988_800 { // 2040-01-01
            dates.append(Date(timeIntervalSince1970: time + 0.75))
            time += 86_400 * 3 + 3_600 * 5 + 60 * 7 + 13
        }
        var cursor = Date(timeIntervalSince1970: 788_918_400)
        while let change = zone.nextDaylightSavingTimeTransition(after: cursor), change.timeIntervalSince1970 < 2_208_988_800 {
            dates += [change.addingTimeInterval(-1), change, change.addingTimeInterval(59)]
            cursor = change
        }
        return dates
    }

    @Test(arguments: zones)
    func handFormattingMatchesDateFormatter(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let info = try #require(ZoneInfo(identifier: zone.identifier))
        let hand = ZoneTimeFormat(zone: info)
        let formatters = Self.icu(zone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var formatted = 0
        for date in Self.instants(in: zone) {
            let year = calendar.component(.year, from: date)
            for currentYear in [2026, year] {
                guard let text = hand.string(date, withDate: true, currentYear: currentYear) else { continue }
                let pattern = year == currentYear ? "EEE MMM d HH:mm zzz" : "EEE MMM d yyyy HH:mm zzz"
                #expect(text == formatters[pattern]?.string(from: date), "\(identifier) \(date)")
                formatted += 1
            }
            if let text = hand.string(date, withDate: false, currentYear: nil) {
                #expect(text == formatters["HH:mm zzz"]?.string(from: date), "\(identifier) \(date)")
            }
        }
        // Hawaii–Aleutian names are ICU's own ("HAST"); those zones always go to Foundation.
        if identifier == "Pacific/Honolulu" || identifier == "America/Adak" {
            #expect(formatted == 0)
        } else {
            #expect(formatted > 8_000)
        }
    }

    @Test func declinesWhatItCannotMatch() throws {
        let losAngeles = ZoneTimeFormat(zone: try #require(ZoneInfo(identifier: "America/Los_Angeles")))
        // Before 2000, ICU's metazone history prints "GMT-8" where tzdata says "PST".
        #expect(losAngeles.string(Date(timeIntervalSince1970: -1_000_000_000), withDate: false, currentYear: nil) == nil)
        // After the file's last transition (2037) no rule is evaluated.
        #expect(losAngeles.string(Date(timeIntervalSince1970: 4_000_000_000), withDate: false, currentYear: nil) == nil)
        #expect(losAngeles.string(Date(timeIntervalSince1970: 1_795_000_000), withDate: false, currentYear: nil) == "03:06 PST")
        // UTC has no rules to evaluate, so it answers beyond 2037, but not for absurd instants.
        let utc = ZoneTimeFormat(zone: try #require(ZoneInfo(identifier: "Etc/UTC")))
        #expect(utc.string(Date(timeIntervalSince1970: 4_000_000_000), withDate: false, currentYear: nil) == "07:06 UTC")
        #expect(utc.string(Date(timeIntervalSince1970: 1e300), withDate: false, currentYear: nil) == nil)
        #expect(ZoneInfo(identifier: "../../etc/passwd") == nil)
        #expect(ZoneInfo(identifier: "Nowhere/Atlantis") == nil)
        #expect(ZoneInfo(data: Data("TZif2 but not really".utf8)) == nil)
    }

    @Test func renderedTimesMatchDateFormatterThroughTheFallback() throws {
        // The renderer's entry point, hand path and fallback together, for every zone above.
        for identifier in Self.zones {
            let zone = try #require(TimeZone(identifier: identifier))
            let formats = LocalTimeFormats(timeZone: zone)
            let formatters = Self.icu(zone)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let currentYear = calendar.component(.year, from: Date())
            for time in stride(from: -2_000_000_000.0, to: 4_200_000_000, by: 9_876_543) {
                let date = Date(timeIntervalSince1970: time)
                let pattern = calendar.component(.year, from: date) == currentYear ? "EEE MMM d HH:mm zzz" : "EEE MMM d yyyy HH:mm zzz"
                #expect(formats.string(date, withDate: true) == formatters[pattern]?.string(from: date), "\(identifier) \(date)")
                #expect(formats.string(date, withDate: false) == formatters["HH:mm zzz"]?.string(from: date), "\(identifier) \(date)")
            }
        }
    }

    @Test func civilTimeFromDays() {
        func fields(_ seconds: Int64) -> [Int] {
            let time = CivilTime(secondsSinceEpoch: seconds)
            return [time.year, time.month, time.day, time.hour, time.minute, time.weekday]
        }
        #expect(fields(0) == [1970, 1, 1, 0, 0, 4])
        #expect(fields(951_782_400 + 3_599) == [2000, 2, 29, 0, 59, 2])
        #expect(fields(-1) == [1969, 12, 31, 23, 59, 3])
    }
}
