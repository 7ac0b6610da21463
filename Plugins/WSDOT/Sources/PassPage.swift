import ConditionsKit
import Foundation

/// Turns the fields read from one pass page into a report, enforcing what a page must hold.
enum PassPage {
    /// The report for `pass` from `values` (the normalized text of each field whose XPath
    /// matched; absent when it matched nothing). A page lacking a required field, or whose
    /// last-update text cannot be read, is a `badResponse` naming the URL, never an empty success.
    static func report(
        values: [PageFields.Field: String], pass: MountainPass, url: URL, fields: PageFields, timeZone: TimeZone
    ) throws(ConditionsError) -> PassReport {
        let shownURL = Redaction.redact(url)
        let missing = PageFields.Field.allCases.filter { $0.isRequired && values[$0] == nil }
        if !missing.isEmpty {
            let names = missing.map(\.rawValue).joined(separator: ", ")
            let xpaths = missing.map { fields[$0] }.joined(separator: ", ")
            throw ConditionsError.badResponse("\(shownURL): missing field\(missing.count == 1 ? "" : "s") \(names) (XPath \(xpaths))")
        }
        let updatedText = values[.updated] ?? ""
        guard let updated = LocalTimeText.parse(updatedText, timeZone: timeZone) else {
            throw ConditionsError.badResponse("\(shownURL): cannot read the last-update time \"\(updatedText)\" (field updated, XPath \(fields[.updated]))")
        }
        let directions = [
            (pass.directions.first, values[.restrictionOne]),
            (pass.directions.second, values[.restrictionTwo]),
        ]
        return PassReport(
            pass: pass,
            conditions: Text.normalized(values[.conditions]),
            weather: Text.normalized(values[.weather]),
            temperatureF: Text.firstNumber(in: values[.temperature]),
            elevationFt: Text.firstNumber(in: values[.elevation]).flatMap { Int(exactly: $0.rounded()) } ?? pass.elevationFt,
            restrictions: directions.compactMap { direction, text in
                Text.normalized(text).map { Restriction(direction: direction, text: $0) }
            },
            updated: updated,
            url: url,
            travelAdvisory: nil
        )
    }
}
