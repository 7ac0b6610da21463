import ConditionsCore
import ConditionsJSON
import ConditionsText
import Foundation

/// One event of `/v1/events`: `initial` or `change`, the `watch` event object, with the id of
/// the stored change it shows when history is on. Made alike from a poll's record and from a
/// change read back from the store (a replay, a change another process recorded), so a client
/// cannot tell them apart.
struct StreamEvent: Sendable {
    enum Name: String, Sendable {
        case initial, change
    }

    let urn: String
    /// The state it shows.
    let after: String
    /// The stored change's id; nil without history, or when the record was not stored.
    let id: Int64?
    /// The SSE text without, and with, the `id:` line (made once: every stream that gets the
    /// event shares the same text).
    private let text: String
    private let textWithID: String

    /// The event of a poll's (or a joining client's) answer, whose state is `after`.
    init(_ name: Name, _ rendered: RenderedResult, after: String, before: String?, at: Date) {
        // The line the coordinator serialized once, less its newline.
        let result = String(decoding: rendered.line.readableBytesView.dropLast(), as: UTF8.self)
        self.init(name, urn: rendered.record.urn, at: at, before: before, after: after, resultText: result, id: rendered.changeID)
    }

    /// The event of a change read back from the store.
    init(stored change: HistoryChange, before: String?) {
        self.init(.change, urn: change.urn, at: change.firstSeen, before: before, after: change.status, resultText: change.resultText, id: change.id)
    }

    /// `data` is `{"event", "urn", "at", "before", "after", "result", "id"}` on one line: the
    /// keys and order of `WatchChange.event`, then the change's id when there is one. `at`: when
    /// the state was seen (the poll, or the change's first observation); `before`: the state
    /// the stream showed before, nil for `initial` or when not known.
    private init(_ name: Name, urn: String, at: Date, before: String?, after: String, resultText: String, id: Int64?) {
        self.urn = urn
        self.after = after
        self.id = id
        var data = #"{"event":""# + name.rawValue + #"","urn":"#
        data.reserveCapacity(resultText.utf8.count + urn.utf8.count + 160)
        data += JSONValue.string(urn).serialized()
        data += #","at":""# + Timestamp.string(from: at) + #"","before":"#
        data += before.map { JSONValue.string($0).serialized() } ?? "null"
        data += #","after":"# + JSONValue.string(after).serialized()
        data += #","result":"# + resultText
        if let id { data += #","id":"# + String(id) }
        let text = "event: \(name.rawValue)\ndata: \(data)}\n\n"
        self.text = text
        textWithID = id.map { "id: \($0)\n" + text } ?? text
    }

    /// The event as Server-Sent Events text, with its `id:` line or without.
    func sse(withID: Bool) -> String {
        withID ? textWithID : text
    }
}

/// The events of one answer or change as the streams getting it need them: one per state they
/// showed before, so that streams alike share one text.
struct EventsByBefore {
    private var made: [String?: StreamEvent] = [:]
    private let make: (String?) -> StreamEvent

    init(_ make: @escaping (String?) -> StreamEvent) {
        self.make = make
    }

    mutating func event(before: String?) -> StreamEvent {
        if let event = made[before] { return event }
        let event = make(before)
        made[before] = event
        return event
    }
}
