import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation

/// A pass card's last 48 hours as the `history` template draws them: one `<rect>` per stretch
/// of a status across a `viewBox` `width` wide (the oldest hour at the left, now at the right),
/// and the same stretches as a list for screen readers, so the picture says nothing the text
/// does not.
///
/// A stretch runs from the observation that first showed a status to the one that first showed
/// the next; the latest runs to its last observation, or to now when that was within the hour.
/// Times no observation covers (a server that was down) are left blank.
enum HistoryStrip {
    /// How far back the strip reaches.
    static let span: TimeInterval = 48 * 3600
    /// The `viewBox` width: ten units an hour.
    static let width = 480.0
    /// The latest change is taken to last until now when seen this recently.
    static let stillCurrent: TimeInterval = 3600
    /// At most this many changes are drawn (the latest): a source flapping every minute would
    /// otherwise put thousands of rectangles on the page.
    static let maximumChanges = 500

    /// One stretch of one status.
    struct Stretch: Equatable {
        let from: Date
        let to: Date
        let word: String
        let tone: ResultCard.Tone
    }

    /// The stretches of `changes` within the `span` before `now`, each status read through the
    /// presentation of `kind` as the card reads its current one; neighbours that read the same
    /// (a restriction text changed, the word did not) are one stretch.
    static func stretches(_ changes: [HistoryChange], presentation: any ResultPresentation, now: Date, context: PresentationContext) -> [Stretch] {
        let start = now.addingTimeInterval(-span)
        var stretches: [Stretch] = []
        for (index, change) in changes.enumerated() {
            var end = index + 1 < changes.count ? changes[index + 1].firstSeen : change.lastSeen
            if index + 1 == changes.count, now.timeIntervalSince(change.lastSeen) <= stillCurrent { end = now }
            let from = max(change.firstSeen, start), to = min(end, now)
            guard to > from else { continue }
            let (word, tone) = status(of: change, presentation: presentation, context: context)
            if let last = stretches.last, last.word == word, last.tone == tone, last.to >= from {
                stretches[stretches.count - 1] = Stretch(from: last.from, to: to, word: word, tone: tone)
            } else {
                stretches.append(Stretch(from: from, to: to, word: word, tone: tone))
            }
        }
        return stretches
    }

    /// A change's word and tone as its card would show them; a failure is "no answer".
    static func status(of change: HistoryChange, presentation: any ResultPresentation, context: PresentationContext) -> (String, ResultCard.Tone) {
        if let kind = change.result["error"]?["kind"]?.stringValue { return ("no answer (\(kind))", .neutral) }
        if let data = change.result["data"], let status = presentation.card(data, context: context).status {
            return (status.word, status.tone)
        }
        return (change.status, .neutral)
    }

    /// The template context of `stretches` as figure `id`, times as `localTime` writes them;
    /// nil when there is nothing to draw.
    static func view(_ stretches: [Stretch], id: String, now: Date, localTime: (Date) -> String) -> [String: Any]? {
        guard !stretches.isEmpty else { return nil }
        let start = now.addingTimeInterval(-span)
        let scale = width / span
        let items = stretches.map { stretch -> [String: Any] in
            let x = stretch.from.timeIntervalSince(start) * scale
            return [
                "x": DrawingShape.number(x), "width": DrawingShape.number(max(0.5, stretch.to.timeIntervalSince(stretch.from) * scale)),
                "tone": stretch.tone.rawValue, "word": stretch.word,
                "from": localTime(stretch.from), "to": stretch.to >= now ? "now" : localTime(stretch.to),
            ]
        }
        return ["id": "\(id)-history", "width": DrawingShape.number(width), "stretches": items,
                "summary": "Status over the last 48 hours, \(stretches.count) stretch\(stretches.count == 1 ? "" : "es"):"]
    }
}
