import ConditionsJSON
import ConditionsKit
import Foundation

/// What is news of a night (issue 43): a clear dark window appearing for the same night where
/// there was none → 3. A window closing, moving or a new night's data is not.
extension NightPresentation {
    func notice(from previous: JSONValue, to current: JSONValue, context: PresentationContext) -> Notice? {
        guard let now = Night(current), let before = Night(previous), now.date == before.date,
              before.windows.isEmpty, let first = now.windows.first else { return nil }
        let place = (current["place"]?["name"]?.stringValue ?? context.placeName).map { " at \($0)" } ?? ""
        let span = "\(context.localTime(first.0, .time))–\(context.localTime(first.1, .time))"
        return Notice(title: "Clear and dark tonight\(place): \(span)", body: render(current, context: context).joined(separator: "\n"),
                      priority: .normal, tags: ["star", "night"])
    }
}
