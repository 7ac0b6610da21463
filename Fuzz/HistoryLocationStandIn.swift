// The config target compiles Config/HistorySettings.swift, which names where the history is kept
// (`HistoryLocation`, in History/HistoryStoring.swift beside the stores it opens, which need
// SQLiteNIO and PostgresNIO). The loader only makes the value, so this target gets the value
// without the stores; opening them is covered by HistoryStoreTests and the Postgres tests.
import Foundation

package enum HistoryLocation: Sendable {
    /// An SQLite file.
    case file(URL)
    /// A PostgreSQL database.
    case postgres(HistoryDatabase)
}
