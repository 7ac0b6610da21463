import ConditionsKit

/// What `watch` compares between polls: the change key of the result's presentation
/// (a pass's status and restriction texts, the moon's phase name, …), not every byte: a pass's
/// "updated" time changing is not news; its status changing is.
package struct ResultState: Equatable, Sendable {
    /// One word or phrase: `restricted`, `waxing gibbous`, `error: timeout`, …
    package let status: String
    /// Details that also count as a change when they differ (restriction texts, phase dates).
    package let detail: String

    /// The state of `record`: its presentation's change key (its kind's in `catalog`), or
    /// `error: <kind>` for a failure.
    /// A URN several chains answered (`ResultRecord.joined`) is one state: each answer's
    /// status in order, joined by ` + `, and each one's detail, so either changing is a change.
    package init(_ record: ResultRecord, catalog: SourceCatalog) {
        guard record.joined.isEmpty else {
            let states = record.answers.map { ResultState($0, catalog: catalog) }
            status = states.map(\.status).joined(separator: " + ")
            detail = states.map(\.detail).joined(separator: "\n")
            return
        }
        switch record.outcome {
        case .failure(let kind, _, _):
            status = "error: \(kind.rawValue)"
            detail = ""
        case .success(_, _, _, let data, _):
            let key = catalog.presentation(for: record.kind).changeKey(data)
            status = key.status
            detail = key.detail
        }
    }
}
