import ConditionsJSON
import ConditionsKit
import Foundation

/// What is news of space weather (issue 43): the next 24 hours' G-level rising to G1 or more →
/// 3, to G3 or more → 4. Falling, or moving within a level, is not.
extension AuroraPresentation {
    func notice(from previous: JSONValue, to current: JSONValue, context: PresentationContext) -> Notice? {
        guard Self.isAurora(current), Self.isAurora(previous) else { return nil }
        func level(_ data: JSONValue) -> Int? {
            let word = (Self.period(data["next24h"]) ?? Self.period(data["observed"]))?.gScale ?? ""
            guard word.hasPrefix("G") else { return nil }
            return Int(word.dropFirst())
        }
        guard let now = level(current), now >= 1, now > level(previous) ?? 0 else { return nil }
        let place = Self.placeName(current).map { " (\($0))" } ?? ""
        return Notice(title: "Geomagnetic storm G\(now) expected in the next 24 h\(place)", body: render(current, context: context).joined(separator: "\n"),
                      priority: now >= 3 ? .high : .normal, tags: ["milky_way", "G\(now)"], link: Self.link)
    }
}
