import Foundation
import PostgresNIO

/// A URN's changes kept together on disk (schema 4, `postgres-4.sql`): a poll writes every URN
/// at once, so without this each of a URN's changes sits on a heap page of its own and one
/// URN's week reads ~2,000 pages. Once an hour a write moves the changes that have settled to
/// the end of the table in URN order; `--vacuum` moves all of them (docs/history.md, "A URN's
/// changes together"; docs/performance.md, "Issue 45", §4).
extension PostgresHistoryStore {
    /// A change last seen this long ago has settled: polls have moved on from it.
    static let settledAfter: TimeInterval = 3600
    /// How often a process packs: each pass moves about an hour of changes.
    static let packingInterval: TimeInterval = 3600
    /// At most this many changes move in one pass, so a write that packs stays short; a pass
    /// that moved this many leaves the rest to the next write.
    static let packedPerPass = 5000

    /// Packs after a write when an interval has passed since the last pass. The write has
    /// committed: a pass that fails is logged and tried again an interval later.
    func packIfDue(now: Date) async {
        let due = nextPacking.withLock { next in
            guard now >= next else { return false }
            next = now.addingTimeInterval(Self.packingInterval)
            return true
        }
        guard due else { return }
        do throws(HistoryError) {
            let moved = try await pack(settledBefore: now.addingTimeInterval(-Self.settledAfter), most: Self.packedPerPass)
            if moved >= Self.packedPerPass { nextPacking.withLock { $0 = .distantPast } }
        } catch {
            logger.notice("history: packing settled changes failed (tried again in an hour): \(error)")
        }
    }

    /// Moves at most `most` (nil: every) changes last seen before `settledBefore` together by
    /// URN, oldest first, keeping their ids; how many moved (0 while another process packs).
    @discardableResult
    package func pack(settledBefore: Date, most: Int?) async throws(HistoryError) -> Int {
        let settled = Self.milliseconds(settledBefore)
        let limit = most.map { Int32(clamping: $0) }
        let query: PostgresQuery = "SELECT conditions_history_pack(\(settled), \(limit))"
        return Int(try await rows(query, as: Int32.self).first ?? 0)
    }
}
