import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// Turns what one pass page said into a report, enforcing what a page must hold.
enum PassPage {
    /// The report for `pass` from `reading`. A page lacking a required field, or whose
    /// last-update text cannot be read, is a `badResponse` naming the URL, never an empty success.
    ///
    /// Required: classic — conditions, both restriction spans and the update time; current —
    /// the `Conditions` and `Last updated` rows and at least one `Travel …` row.
    static func report(
        reading: PageReading, pass: MountainPass, url: URL, fields: PageFields, timeZone: TimeZone, now: Date?
    ) throws(ConditionsError) -> PassReport {
        let shownURL = Redaction.redact(url)
        let values = reading.values
        var restrictions: [Restriction]
        switch reading.restrictions {
        case nil:
            let missing = PageFields.Field.allCases.filter { $0.isRequired && values[$0] == nil }
            if !missing.isEmpty {
                let names = missing.map(\.rawValue).joined(separator: ", ")
                let xpaths = missing.map { fields[$0] }.joined(separator: ", ")
                throw ConditionsError.badResponse("\(shownURL): missing field\(missing.count == 1 ? "" : "s") \(names) (classic layout, XPath \(xpaths))")
            }
            let directions = [(pass.directions.first, values[.restrictionOne]), (pass.directions.second, values[.restrictionTwo])]
            restrictions = directions.compactMap { direction, text in
                Text.normalized(text).map { Restriction(direction: direction, text: $0) }
            }
        case let rows?:
            var merged = rows
            // A `fields` override of a restriction replaces the row of the catalog's direction.
            for (field, direction) in [(PageFields.Field.restrictionOne, pass.directions.first), (.restrictionTwo, pass.directions.second)] {
                guard let text = values[field] else { continue }
                if let index = merged.firstIndex(where: { $0.direction == direction }) {
                    merged[index].text = text
                } else {
                    merged.append((direction, text))
                }
            }
            var missing: [String] = []
            if values[.conditions] == nil { missing.append("Conditions") }
            if merged.isEmpty { missing.append("Travel eastbound/westbound/northbound/southbound") }
            if values[.updated] == nil { missing.append("Last updated") }
            if !missing.isEmpty {
                throw ConditionsError.badResponse("\(shownURL): no row labelled \(missing.joined(separator: ", ")) (current layout, div.condition rows read by label)")
            }
            restrictions = merged.compactMap { direction, text in
                Text.normalized(text).map { Restriction(direction: direction, text: $0) }
            }
        }
        let updatedText = values[.updated] ?? ""
        guard let updated = LocalTimeText.parse(updatedText, timeZone: timeZone) else {
            let source = reading.layout == .classic || fields.overrides[.updated] != nil ? "field updated, XPath \(fields[.updated])" : "row Last updated"
            throw ConditionsError.badResponse("\(shownURL): cannot read the last-update time \"\(Text.normalized(updatedText) ?? "")\" (\(source))")
        }
        return PassReport(
            pass: pass,
            conditions: Text.normalized(values[.conditions]),
            weather: Text.normalized(values[.weather]),
            temperatureF: Text.firstNumber(in: values[.temperature]),
            elevationFt: Text.firstNumber(in: values[.elevation]).flatMap { Int(exactly: $0.rounded()) } ?? pass.elevationFt,
            restrictions: restrictions,
            updated: updated,
            url: url,
            travelAdvisory: nil,
            readAt: now,
            extra: reading.extra.compactMap { row in
                Text.normalized(row.label).map { PassReport.ExtraRow(label: $0, value: Text.normalized(row.value) ?? "") }
            }
        )
    }
}
