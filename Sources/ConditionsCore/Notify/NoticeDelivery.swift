import ConditionsJSON
import ConditionsKit
import Crypto
import Foundation

/// One notice on its way to one target: what the outbox keeps until the target answers 2xx.
/// Its `id` is the same on every attempt and after a restart (a webhook's `webhook-id`), so a
/// receiver collapses a notice sent twice.
package struct NoticeDelivery: Sendable, Equatable {
    /// `<change>-<target>`: stable across retries and restarts.
    package let id: String
    /// The change that made it: the history store's change id, or a fresh one without history.
    package let changeID: String
    package let urn: String
    package let target: String
    package let notice: Notice
    /// The URN's data before and after the change.
    package let before: JSONValue
    package let after: JSONValue
    /// When the change was seen.
    package let at: Date
    /// Attempts made so far.
    package var attempts: Int = 0
    /// Not to be sent before this instant (a retry's backoff, quiet hours).
    package var notBefore: Date
    /// When it could first be sent: the change, or the end of the quiet hours that held it.
    /// `maxAge` counts from here.
    package var since: Date

    package init(changeID: String, urn: String, target: String, notice: Notice, before: JSONValue, after: JSONValue, at: Date) {
        id = "\(changeID)-\(target)"
        self.changeID = changeID
        self.urn = urn
        self.target = target
        self.notice = notice
        self.before = before
        self.after = after
        self.at = at
        notBefore = at
        since = at
    }

    /// ntfy's `X-Sequence-ID` for the URN: `c-` and 32 hex digits of its SHA-256 (ntfy takes at
    /// most 64 of `[A-Za-z0-9_-]`, which a URN is not), so a phone keeps one notification per
    /// URN, replaced in place (ntfy 2.16 and later).
    package var sequenceID: String {
        "c-" + SHA256.hash(data: Data(urn.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// At most 4,096 bytes of the body, cut at a character (ntfy.sh's message limit).
    package static func clipped(_ text: String, bytes limit: Int = 4096) -> String {
        guard text.utf8.count > limit else { return text }
        var clipped = ""
        var used = 0
        for character in text {
            let size = String(character).utf8.count
            guard used + size <= limit - 3 else { break }
            clipped.append(character)
            used += size
        }
        return clipped + "…"
    }

    /// The delivery as the outbox stores it.
    package var json: JSONValue {
        var object: JSONObject = ["changeID": .string(changeID), "urn": .string(urn), "target": .string(target), "title": .string(notice.title),
                                  "body": .string(notice.body), "priority": .int(notice.priority.rawValue),
                                  "tags": .array(notice.tags.map(JSONValue.string)), "before": before, "after": after, "at": JSONValue(at),
                                  "since": JSONValue(since)]
        if let link = notice.link { object["link"] = .string(link.absoluteString) }
        if let image = notice.image { object["image"] = .string(image.absoluteString) }
        return .object(object)
    }

    /// A delivery from its stored form; nil for anything else.
    package init?(json value: JSONValue, attempts: Int, notBefore: Date) {
        guard let changeID = value["changeID"]?.stringValue, let urn = value["urn"]?.stringValue, let target = value["target"]?.stringValue,
              let title = value["title"]?.stringValue, let body = value["body"]?.stringValue,
              let priority = value["priority"]?.intValue.flatMap(Notice.Priority.init(rawValue:)), let at = value["at"]?.dateValue else { return nil }
        let notice = Notice(title: title, body: body, priority: priority, tags: (value["tags"]?.arrayValue ?? []).compactMap(\.stringValue),
                            link: value["link"]?.stringValue.flatMap(URL.init(string:)), image: value["image"]?.stringValue.flatMap(URL.init(string:)))
        self.init(changeID: changeID, urn: urn, target: target, notice: notice, before: value["before"] ?? .null, after: value["after"] ?? .null, at: at)
        self.attempts = attempts
        self.notBefore = notBefore
        since = value["since"]?.dateValue ?? at
    }
}
