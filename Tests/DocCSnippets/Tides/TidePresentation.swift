import ConditionsJSON
import ConditionsKit
import Foundation

/// `tide:{station}` as text and as a card, and what `watch` compares: which tide is next.
struct TidePresentation: ResultPresentation {
    let kind = TidesSource.kind

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        // Data may come from a hand-edited recording or an old cache entry: fall back, never trap.
        guard let next = Self.next(data, context: context) else { return GenericPresentation().render(data, context: context) }
        return ["\(context.style.bold(context.urn))  \(next)"]
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        guard let tide = data["tide"]?.stringValue else { return GenericPresentation().changeKey(data) }
        // The status is printed on change lines; the time only makes a change.
        return ChangeKey(status: "\(tide) tide next", detail: data["at"]?.stringValue ?? "")
    }

    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        guard let station = data["station"]?.stringValue, let tide = data["tide"]?.stringValue,
              let next = Self.next(data, context: context) else { return GenericPresentation().card(data, context: context) }
        let page = URL(string: "https://tidesandcurrents.noaa.gov/stationhome.html?id=\(station)")
        return ResultCard(title: "Tides at \(station)", status: .init(tide, tone: .neutral),
                          rows: [.init("Next", next)], link: page.map { .init(url: $0, label: "NOAA's station page") })
    }

    /// `low 3.912 ft at 08:41 PST`, or nil when `data` is not a tide's.
    static func next(_ data: JSONValue, context: PresentationContext) -> String? {
        guard let tide = data["tide"]?.stringValue, let height = data["height"]?.doubleValue, let at = data["at"]?.dateValue else { return nil }
        return "\(tide) \(height) \(data["unit"]?.stringValue ?? "") at \(context.localTime(at, .time))"
    }
}
