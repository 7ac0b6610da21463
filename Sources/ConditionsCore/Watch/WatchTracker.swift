import ConditionsJSON
import ConditionsKit
import Foundation

/// What `watch` keeps between polls: each URN's last state. Given a poll's records it says
/// which are news, so any front end (the CLI's `watch`, a server streaming changes) reports
/// the same changes.
package struct WatchTracker {
    private var previous: [String: ResultState] = [:]
    private let catalog: SourceCatalog

    /// A tracker that has seen nothing yet: every URN's first record is an initial state.
    /// `catalog`: whose presentations say what a change is.
    package init(catalog: SourceCatalog) {
        self.catalog = catalog
    }

    /// The records of this poll whose state differs from the last poll's, in order, each URN's
    /// first appearance included as an initial state. A failure is a state too (`error: timeout`).
    package mutating func changes(in records: [ResultRecord], at now: Date) -> [WatchChange] {
        records.compactMap { record in
            let state = ResultState(record, catalog: catalog)
            let before = previous.updateValue(state, forKey: record.urn)
            if let before, before == state { return nil }
            return WatchChange(record: record, before: before, after: state, at: now)
        }
    }
}

/// One URN's state changing (or first seen) at a poll.
package struct WatchChange: Sendable {
    /// The record of this poll.
    package let record: ResultRecord
    /// The previous state; nil on the first poll.
    package let before: ResultState?
    /// The state now.
    package let after: ResultState
    /// The poll's instant.
    package let at: Date

    /// The event as `--format ndjson` prints it and hooks receive it:
    /// `{"event": "initial"|"change", "urn", "at", "before", "after", "result"}`.
    package var event: JSONValue {
        [
            "event": .string(before == nil ? "initial" : "change"),
            "urn": .string(record.urn),
            "at": JSONValue(at),
            "before": before.map { .string($0.status) } ?? .null,
            "after": .string(after.status),
            "result": record.json,
        ]
    }
}
