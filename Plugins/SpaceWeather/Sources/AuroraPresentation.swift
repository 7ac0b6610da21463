import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// How `aurora` results read, and what `watch` compares in them.
///
/// Text: a heading with Kp now (in thirds) and the highest Kp of the next 24 hours with its
/// G-level and the time of the peak; a line for the next 3 days; the observed period; for a
/// place the OVATION probability at its cell and the forecast's time; then the notes.
///
/// Change key: the status is the next 24 hours' G-level (`G0` … `G5`), or the observed one when
/// the forecast has no period ahead; the detail is the observed G-level. A Kp that moves within
/// a level, the time of the peak and the OVATION probability are not news.
struct AuroraPresentation: ResultPresentation {
    let kind = SpaceWeatherSource.kind
    static let link = URL(string: "https://www.swpc.noaa.gov/products/aurora-30-minute-forecast")!

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        guard Self.isAurora(data) else { return GenericPresentation().render(data, context: context) }
        let style = context.style
        var heading = "\(style.bold(context.urn))  "
        if let place = Self.placeName(data) { heading += "\(place): " }
        heading += Self.kpNow(data["observed"])
        if let next = Self.period(data["next24h"]) {
            heading += ", next 24 h up to \(Self.peak(next, context: context))"
        } else {
            heading += ", no Kp forecast for the next 24 h"
        }
        var rows: [(String, String)] = []
        if let next = Self.period(data["next3d"]) { rows.append(("3 days", "up to \(Self.peak(next, context: context))")) }
        if let observed = Self.period(data["observed"]) {
            rows.append(("observed", "Kp \(observed.text) (\(String(format: "%.2f", observed.kp))) for the 3 h from \(Self.time(observed.time, context: context))"))
        }
        if let ovation = Self.ovationText(data, context: context) { rows.append(("aurora", ovation)) }
        for note in (data["notes"]?.arrayValue ?? []).compactMap(\.stringValue) { rows.append(("note", note)) }
        let width = rows.map(\.0.count).max() ?? 0
        return [heading] + rows.map { label, value in "  " + style.dim(label.padding(toLength: width, withPad: " ", startingAt: 0)) + "  " + value }
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        guard Self.isAurora(data) else { return GenericPresentation().changeKey(data) }
        let now = Self.period(data["observed"])?.gScale ?? "unknown"
        let ahead = Self.period(data["next24h"])?.gScale ?? now
        return ChangeKey(status: ahead, detail: "now \(now)")
    }

    // MARK: Reading the data

    /// A Kp period as the data gives it.
    struct Period {
        let kp: Double
        let text: String
        let gScale: String
        let time: Date?
    }

    /// Data from elsewhere (a fixture, the cache) is read as aurora only with the members the
    /// text is built from.
    static func isAurora(_ data: JSONValue) -> Bool {
        data.objectValue != nil && data["observed"] != nil && data["next24h"] != nil
    }

    static func period(_ value: JSONValue?) -> Period? {
        guard let value, let kp = value["kp"]?.doubleValue, kp.isFinite, (0...9).contains(kp) else { return nil }
        let level = value["gScale"]?.stringValue.flatMap(KpScale.level(scale:)) ?? KpScale.level(kp: kp)
        return Period(kp: kp, text: value["kpText"]?.stringValue ?? KpScale.text(kp), gScale: KpScale.word(level),
                      time: value["time"]?.dateValue)
    }

    /// The level of a `G0`…`G5` word, 0 for anything else.
    static func level(_ word: String) -> Int { KpScale.level(scale: word) ?? 0 }

    static func placeName(_ data: JSONValue) -> String? {
        guard let place = data["place"], place.objectValue != nil else { return nil }
        return place["name"]?.stringValue ?? place["id"]?.stringValue
    }

    // MARK: Writing

    /// `Kp 2+ now`, `Kp unknown now`.
    static func kpNow(_ observed: JSONValue?) -> String {
        guard let observed = period(observed) else { return "Kp unknown now" }
        return "Kp \(observed.text) now"
    }

    /// `5+ (G1 minor storm) at Thu Feb 5 03:00`.
    static func peak(_ period: Period, context: PresentationContext) -> String {
        var text = "\(period.text) (\(scaleText(period.gScale)))"
        if let time = period.time { text += " at \(Self.time(time, context: context))" }
        return text
    }

    /// `G0`, `G1 minor storm`: the level named from G1 up.
    static func scaleText(_ word: String) -> String {
        let level = level(word)
        return level == 0 ? word : "\(word) \(KpScale.names[level])"
    }

    static func time(_ date: Date?, context: PresentationContext) -> String {
        date.map { context.localTime($0, .dateTime) } ?? "an unknown time"
    }

    /// `0 % at Stevens Pass (cell 48° N, 239° E), OVATION for …`; nil without a place.
    static func ovationText(_ data: JSONValue, context: PresentationContext) -> String? {
        guard let ovation = data["ovation"], ovation.objectValue != nil else { return nil }
        var text = ovation["probability"]?.intValue.map { "\($0) % chance" } ?? "no probability"
        if let place = placeName(data) { text += " at \(place)" }
        if let latitude = ovation["latitude"]?.intValue, let longitude = ovation["longitude"]?.intValue {
            text += " (cell \(abs(latitude))° \(latitude < 0 ? "S" : "N"), \(longitude)° E)"
        }
        if let forecast = ovation["forecastTime"]?.dateValue {
            text += ", OVATION for \(time(forecast, context: context))"
        }
        return text
    }
}
