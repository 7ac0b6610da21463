import ConditionsKit
import Foundation

/// Renders results for people through the presentation of each result's kind
/// (`SourceCatalog.presentation(for:)`), so any source producing a kind — live, cached or
/// replayed from fixtures — prints the same way; results of no known kind print as indented
/// key/value lines. The host knows no plugin's data: styling and local times are what it adds.
package struct TextRenderer {
    let style: TextStyle
    let timeZone: TimeZone
    let placeName: String?
    private let formats: LocalTimeFormats

    /// A renderer styling with `style`, local times in `timeZone`.
    package init(style: TextStyle, timeZone: TimeZone, placeName: String?) {
        self.style = style
        self.timeZone = timeZone
        self.placeName = placeName
        formats = LocalTimeFormats(timeZone: timeZone)
    }

    /// The lines for a successful result; failures go to stderr elsewhere.
    package func render(urn: String, data: JSONValue, kind: ResultKind?) -> [String] {
        SourceCatalog.presentation(for: kind).render(data, context: context(urn: urn))
    }

    /// What a presentation renders with: this renderer's style, place and time formats (and
    /// the config's `place`, for presentations whose cards depend on it).
    package func context(urn: String, place: Place? = nil) -> PresentationContext {
        PresentationContext(urn: urn, style: style, placeName: placeName, place: place) { [formats] date, format in
            switch format {
            case .time: formats.string(date, withDate: false)
            case .dateTime: formats.string(date, withDate: true)
            case .date: formats.string(date, pattern: "EEE MMM d yyyy")
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

    /// Times print in the location's zone with its usual abbreviation ("Sat Nov 21 06:30 PST");
    /// the year appears only when it is not the current one.
    package func localTime(_ date: Date, withDate: Bool) -> String {
        formats.string(date, withDate: withDate)
    }
}

/// The renderer's time formatting through Foundation: one `DateFormatter` per pattern, made on
/// first use (creating one opens an ICU formatter, ~0.3 ms; the first also loads ICU's data).
/// Zone names are ICU's: `PST`/`PDT` for North American zones since about 1970, `GMT-7` for
/// earlier instants and for zones without an English short name (`GMT+1` in Berlin).
final class LocalTimeFormats {
    private let timeZone: TimeZone
    private var formatters: [String: DateFormatter] = [:]
    private lazy var calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }()
    private lazy var currentYear = calendar.component(.year, from: Date())

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    func string(_ date: Date, withDate: Bool) -> String {
        guard withDate else { return string(date, pattern: "HH:mm zzz") }
        let sameYear = calendar.component(.year, from: date) == currentYear
        return string(date, pattern: sameYear ? "EEE MMM d HH:mm zzz" : "EEE MMM d yyyy HH:mm zzz")
    }

    /// Formats with Foundation.
    func string(_ date: Date, pattern: String) -> String {
        if let formatter = formatters[pattern] { return formatter.string(from: date) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        formatters[pattern] = formatter
        return formatter.string(from: date)
    }
}
