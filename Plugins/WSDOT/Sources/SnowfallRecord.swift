import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

/// WSDOT's SnowFallData answer for one pass and season: a JSON array with one object per month
/// that has data (months without data are absent), each holding its reported days.
///
/// ```json
/// [{"month": "Nov", "monthNum": 11, "year": 2023, "displayOrder": 2,
///   "avgNewSnowfallInches": 1.343333, "avgTotalSnowfallInches": 7,
///   "dailySnowFall": [{"day": 3, "newDailySnowFall": 5.1, "totalSnowFall": 2, "accumulatedSnowFall": 5.6}]}]
/// ```
///
/// Read tolerantly, since only the shape is documented: unknown members are ignored; a month
/// without `dailySnowFall` (or with null) has no days; a missing `monthNum` is read from
/// `month` ("Nov", "November"), a missing `year` from the season; a missing or null figure is
/// one not reported; figures may be decimals, and numbers written as strings are read too.
/// What cannot be read — not JSON, not an array, a month or day naming no date, a figure that
/// is no number — is a `badResponse` naming the URL and the member's path.
struct SnowfallRecord: Sendable, Equatable {
    /// One reported day. Figures are inches; nil when the day does not report one.
    struct Day: Sendable, Equatable {
        let date: CivilDate
        /// `newDailySnowFall`: snow that fell that day.
        var newSnowIn: Double?
        /// `totalSnowFall`: the depth on the ground.
        var depthIn: Double?
        /// `accumulatedSnowFall`: the season's snowfall to that day.
        var seasonTotalIn: Double?
    }

    /// A month's averages as the service gives them.
    struct Month: Sendable, Equatable {
        let year: Int
        let month: Int
        /// `avgNewSnowfallInches`: the average new snow per reported day (not a monthly total).
        var avgNewSnowIn: Double?
        /// `avgTotalSnowfallInches`: the average depth.
        var avgDepthIn: Double?
    }

    /// In date order.
    var months: [Month]
    /// In date order, one per date (a date reported twice keeps its first report).
    var days: [Day]

    init(months: [Month], days: [Day]) {
        self.months = months
        self.days = days
    }

    /// Reads `data`, the answer for `season` fetched from `url` (already redacted; it starts
    /// every error message).
    init(data: Data, season: SnowfallSeason, url: String) throws(ConditionsError) {
        let document: JSONValue
        do {
            document = try JSONValue.parse(data)
        } catch {
            throw ConditionsError.badResponse("\(url): SnowFallData answer is not JSON (\(error))")
        }
        guard let array = document.arrayValue else {
            var problem = "\(url): SnowFallData answer: expected an array of months, found \(document.typeName)"
            if let message = document["Message"]?.stringValue ?? document["message"]?.stringValue, let shown = Text.normalized(message) {
                problem += " saying \"\(shown.prefix(200))\""
            }
            throw ConditionsError.badResponse(problem)
        }
        var months: [Month] = []
        var days: [Day] = []
        var seen = Set<CivilDate>()
        for (index, element) in array.enumerated() {
            let reader = MemberReader(url: url, path: "[\(index)]")
            guard let object = element.objectValue else { throw reader.error("expected an object (a month), found \(element.typeName)") }
            let month = try Self.monthNumber(object, reader: reader)
            let year = try reader.whole(object["year"], "year", in: 1000...9999) ?? season.year(ofMonth: month)
            months.append(Month(year: year, month: month,
                                avgNewSnowIn: try reader.number(object["avgNewSnowfallInches"], "avgNewSnowfallInches"),
                                avgDepthIn: try reader.number(object["avgTotalSnowfallInches"], "avgTotalSnowfallInches")))
            guard let daily = object["dailySnowFall"], !daily.isNull else { continue }
            guard let entries = daily.arrayValue else { throw reader.error("dailySnowFall", "expected an array or null, found \(daily.typeName)") }
            for (dayIndex, entry) in entries.enumerated() {
                let dayReader = MemberReader(url: url, path: "[\(index)].dailySnowFall[\(dayIndex)]")
                guard let fields = entry.objectValue else { throw dayReader.error("expected an object (a day), found \(entry.typeName)") }
                guard let number = try dayReader.whole(fields["day"], "day", in: 1...31) else { throw dayReader.error("day", "missing") }
                guard let date = CivilDate(year: year, month: month, day: number) else {
                    throw dayReader.error("day", "\(number) is not a day of \(CivilDate.monthNames[month - 1]) \(year)")
                }
                let day = Day(date: date,
                              newSnowIn: try dayReader.number(fields["newDailySnowFall"], "newDailySnowFall"),
                              depthIn: try dayReader.number(fields["totalSnowFall"], "totalSnowFall"),
                              seasonTotalIn: try dayReader.number(fields["accumulatedSnowFall"], "accumulatedSnowFall"))
                if seen.insert(date).inserted { days.append(day) }
            }
        }
        self.months = months.sorted { ($0.year, $0.month) < ($1.year, $1.month) }
        self.days = days.sorted { $0.date < $1.date }
    }

    /// `monthNum`, else the month named by `month`.
    private static func monthNumber(_ object: JSONObject, reader: MemberReader) throws(ConditionsError) -> Int {
        if let number = try reader.whole(object["monthNum"], "monthNum", in: 1...12) { return number }
        guard let name = object["month"], !name.isNull else { throw reader.error("monthNum", "missing, and no month name either") }
        guard let text = name.stringValue else { throw reader.error("month", "expected a month name, found \(name.typeName)") }
        let prefix = text.trimmingCharacters(in: .whitespaces).prefix(3).lowercased()
        guard prefix.count == 3, let index = CivilDate.monthNames.firstIndex(where: { $0.lowercased() == prefix }) else {
            throw reader.error("month", "\"\(text.prefix(40))\" is not a month name")
        }
        return index + 1
    }
}

/// Typed reads of one month's or day's members; errors name the URL and the member's path.
private struct MemberReader {
    let url: String
    let path: String

    func error(_ problem: String) -> ConditionsError {
        ConditionsError.badResponse("\(url): SnowFallData \(path): \(problem)")
    }

    func error(_ key: String, _ problem: String) -> ConditionsError {
        ConditionsError.badResponse("\(url): SnowFallData \(path).\(key): \(problem)")
    }

    /// A finite number, a string holding one, or nil for a missing member, null or "".
    func number(_ value: JSONValue?, _ key: String) throws(ConditionsError) -> Double? {
        guard let value, !value.isNull else { return nil }
        let number: Double?
        if let string = value.stringValue {
            let trimmed = string.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return nil }
            number = Double(trimmed)
        } else {
            number = value.doubleValue
        }
        guard let number else {
            let shown = value.stringValue.map { "string \"\($0.prefix(40))\"" } ?? value.typeName
            throw error(key, "expected a number or null, found \(shown)")
        }
        guard number.isFinite, abs(number) < 1e9 else { throw error(key, "\(number) is out of range") }
        return number
    }

    /// A whole number within `range`, or nil for a missing member or null.
    func whole(_ value: JSONValue?, _ key: String, in range: ClosedRange<Int>) throws(ConditionsError) -> Int? {
        guard let number = try number(value, key) else { return nil }
        guard number.rounded() == number, let whole = Int(exactly: number), range.contains(whole) else {
            throw error(key, "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(JSONValue.double(number).serialized())")
        }
        return whole
    }
}
