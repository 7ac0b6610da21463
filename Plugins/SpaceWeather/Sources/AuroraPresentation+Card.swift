import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// The dashboard's card of an `aurora` result: the next 24 hours' G-level as the status (G0
/// good, G1–G2 caution, G3 and above bad), rows for Kp now, the next 24 hours, the next 3 days
/// and at a place the OVATION probability, the notes, and SWPC's aurora forecast page.
extension AuroraPresentation {
    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        guard Self.isAurora(data) else { return GenericPresentation().card(data, context: context) }
        let place = Self.placeName(data)
        var card = ResultCard(title: place.map { "Aurora at \($0)" } ?? "Aurora and geomagnetic activity",
                              subtitle: "NOAA Space Weather Prediction Center")
        let observed = Self.period(data["observed"])
        let next = Self.period(data["next24h"])
        if let word = next?.gScale ?? observed?.gScale {
            card.status = .init(Self.scaleText(word), tone: Self.tone(word))
        } else {
            card.status = .init("no data", tone: .neutral)
        }
        if let observed {
            card.rows.append(.init("Kp now", "\(observed.text) (\(String(format: "%.2f", observed.kp))) from \(Self.time(observed.time, context: context))",
                                   tone: Self.tone(observed.gScale)))
        }
        for (label, key) in [("Next 24 hours", "next24h"), ("Next 3 days", "next3d")] {
            guard let period = Self.period(data[key]) else { continue }
            card.rows.append(.init(label, "up to \(Self.peak(period, context: context))", tone: Self.tone(period.gScale)))
        }
        if let ovation = data["ovation"], ovation.objectValue != nil {
            card.rows.append(.init("Aurora probability", ovation["probability"]?.intValue.map { "\($0) %" } ?? "—"))
            if let forecast = ovation["forecastTime"]?.dateValue {
                card.rows.append(.init("OVATION forecast for", context.localTime(forecast, .dateTime)))
            }
        }
        card.lines = (data["notes"]?.arrayValue ?? []).compactMap(\.stringValue)
        card.updated = observed?.time
        card.link = .init(url: Self.link, label: "SWPC's aurora 30-minute forecast")
        if let latitude = data["place"]?["latitude"]?.doubleValue, let longitude = data["place"]?["longitude"]?.doubleValue,
           latitude.isFinite, longitude.isFinite {
            card.coordinate = .init(latitude: latitude, longitude: longitude)
        }
        return card
    }

    /// G0 good, G1 and G2 caution, G3 to G5 bad.
    static func tone(_ word: String) -> ResultCard.Tone {
        switch level(word) {
        case 0: .good
        case 1, 2: .caution
        default: .bad
        }
    }
}
