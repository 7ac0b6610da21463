import ConditionsJSON
import ConditionsKit
import Foundation

/// What is news of avalanche danger (issue 43): a warning issued → 5; the danger in any band
/// today rising to 3 (considerable) or more → 4; any other change of the change key (a band
/// easing, the problems) → 2. For `avalanche:all` the most urgent zone's, counting the others.
extension AvalanchePresentation {
    func notice(from previous: JSONValue, to current: JSONValue, context: PresentationContext) -> Notice? {
        if let zones = current["zones"]?.arrayValue {
            var before: [String: JSONValue] = [:]
            for zone in previous["zones"]?.arrayValue ?? [] { if let name = zone["zone"]?["name"]?.stringValue { before[name] = zone } }
            let notices = zones.compactMap { zone -> Notice? in
                guard let name = zone["zone"]?["name"]?.stringValue, let old = before[name] else { return nil }
                return zoneNotice(from: old, to: zone, name: name, context: context)
            }
            guard let top = notices.first(where: { $0.priority == notices.map(\.priority).max() }) else { return nil }
            var notice = top
            if notices.count > 1 { notice.title += " (and \(notices.count - 1) more)" }
            notice.body = notices.map(\.title).joined(separator: "\n")
            return notice
        }
        guard let name = current["zone"]?["name"]?.stringValue, previous["zone"] != nil else { return nil }
        return zoneNotice(from: previous, to: current, name: name, context: context)
    }

    private func zoneNotice(from previous: JSONValue, to current: JSONValue, name: String, context: PresentationContext) -> Notice? {
        let warned = { (zone: JSONValue) in zone["warning"].map { !$0.isNull } ?? false }
        let day = current["day"]?.stringValue ?? ForecastDay.today.rawValue
        let risen = ["above", "near", "below"].compactMap { band -> (String, Int)? in
            guard let level = current["danger"]?[day]?[band]?["level"]?.intValue, DangerScale.isRated(level), level >= 3 else { return nil }
            let before = previous["danger"]?[day]?[band]?["level"]?.intValue ?? 0
            return level > before ? (band, level) : nil
        }
        let title: String, priority: Notice.Priority, tags: [String]
        if warned(current), !warned(previous) {
            (title, priority, tags) = ("Avalanche warning: \(name)", .urgent, ["rotating_light", "warning"])
        } else if let highest = risen.max(by: { $0.1 < $1.1 }) {
            let bands = risen.filter { $0.1 == highest.1 }.map { "\($0.0) treeline" }.joined(separator: ", ")
            (title, priority, tags) = ("\(name): avalanche danger \(DangerScale.levels[highest.1 - 1].name) \(bands)", .high, ["warning", "avalanche"])
        } else if changeKey(previous) != changeKey(current) {
            (title, priority, tags) = ("\(name): avalanche forecast changed, \(changeKey(current).status)", .low, ["avalanche"])
        } else {
            return nil
        }
        return Notice(title: title, body: render(current, context: context).joined(separator: "\n"), priority: priority, tags: tags,
                      link: current["url"]?.stringValue.flatMap(URL.init(string:)))
    }
}
