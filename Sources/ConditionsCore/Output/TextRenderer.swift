import ConditionsJSON
import ConditionsKit
import Foundation

/// Renders results for people through the presentation of each result's kind
/// (`SourceCatalog.presentation(for:)`, from the modules the program registered), so any source producing a kind — live, cached or
/// replayed from fixtures — prints the same way; results of no known kind print as indented
/// key/value lines. The host knows no plugin's data: styling and local times are what it adds.
package struct TextRenderer {
    package let catalog: SourceCatalog
    let style: TextStyle
    let timeZone: TimeZone
    let placeName: String?
    private let formats: LocalTimeFormats

    /// A renderer styling with `style`, local times in `timeZone`.
    package init(catalog: SourceCatalog, style: TextStyle, timeZone: TimeZone, placeName: String?) {
        self.catalog = catalog
        self.style = style
        self.timeZone = timeZone
        self.placeName = placeName
        formats = LocalTimeFormats(timeZone: timeZone)
    }

    /// The lines for a successful result; failures go to stderr elsewhere.
    package func render(urn: String, data: JSONValue, kind: ResultKind?) -> [String] {
        catalog.presentation(for: kind).render(data, context: context(urn: urn))
    }

    /// What a presentation renders with: this renderer's style, place and time formats (and
    /// the config's `place`, for presentations whose cards depend on it).
    package func context(urn: String, place: Place? = nil) -> PresentationContext {
        PresentationContext(urn: urn, style: style, placeName: placeName, place: place) { [formats] date, format in
            switch format {
            case .time: formats.string(date, withDate: false)
            case .dateTime: formats.string(date, withDate: true)
            case .date: formats.day(date)
            }
        }
    }

    // MARK: Time

    /// "42 s", "17 min", "3 h 5 min", "2 d 4 h".
    package static func age(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86400 { return "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86400) d \(s % 86400 / 3600) h"
    }

    /// Times print in the location's zone with the tz database's abbreviation for that instant
    /// ("Sat Nov 21 06:30 PST", "Sat Jul 1 1950 12:00 PDT"); the year appears only when it is
    /// not the current one (`LocalTimeFormats`).
    package func localTime(_ date: Date, withDate: Bool) -> String {
        formats.string(date, withDate: withDate)
    }
}
