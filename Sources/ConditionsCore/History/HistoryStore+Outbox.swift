import ConditionsJSON
import Foundation
import NIOCore
import SQLiteNIO

/// The history file's outbox of notices (schema migration 2): a `watch` and a `serve` on one
/// file share it, each claiming rows in one statement, so one of them sends each notice.
extension HistoryStore: NoticeOutbox {
    package var isDurable: Bool { true }

    package func enqueue(_ deliveries: [NoticeDelivery]) async throws {
        for delivery in deliveries {
            // One statement each: replacing the pending older notice and storing the new one
            // must not leave neither, so the delete names the new id as the one to keep.
            try await run("DELETE FROM notices WHERE urn = ? AND target = ? AND sent IS NULL AND id != ?",
                          [.text(delivery.urn), .text(delivery.target), .text(delivery.id)])
            try await run("""
                INSERT INTO notices (id, urn, target, delivery, since, not_before, attempts) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """, [.text(delivery.id), .text(delivery.urn), .text(delivery.target), .text(delivery.json.serialized()),
                      .integer(Self.milliseconds(delivery.notBefore)), .integer(Self.milliseconds(delivery.notBefore)), .integer(delivery.attempts)])
        }
    }

    package func claim(now: Date, limit: Int, for seconds: Double, claimant: String) async throws -> [NoticeDelivery] {
        let at = Self.milliseconds(now)
        let rows = try await self.rows("""
            UPDATE notices SET claimed_by = ?, claimed_until = ?
             WHERE id IN (SELECT id FROM notices WHERE sent IS NULL AND not_before <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
                           ORDER BY not_before LIMIT ?)
            RETURNING delivery, attempts, not_before
            """, [.text(claimant), .integer(Self.milliseconds(now.addingTimeInterval(seconds))), .integer(at), .integer(at), .integer(limit)])
        return rows.compactMap { row in
            guard let text = row.column("delivery")?.string, let value = try? JSONValue.parse(Data(text.utf8)),
                  let attempts = row.column("attempts")?.integer, let notBefore = row.column("not_before")?.integer else { return nil }
            return NoticeDelivery(json: value, attempts: attempts, notBefore: Self.date(SQLiteInt64(notBefore)))
        }
    }

    package func delivered(_ id: String, at: Date) async throws {
        try await run("UPDATE notices SET sent = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ?", [.integer(Self.milliseconds(at)), .text(id)])
        // Sent notices are kept as long as changes are, for `conditions doctor` and tests.
        try await run("DELETE FROM notices WHERE id IN (SELECT id FROM notices WHERE sent IS NOT NULL AND sent < ? LIMIT 8)",
                      [.integer(Self.milliseconds(at.addingTimeInterval(-retain)))])
    }

    package func retry(_ id: String, attempts: Int, at: Date) async throws {
        try await run("UPDATE notices SET attempts = ?, not_before = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ?",
                      [.integer(attempts), .integer(Self.milliseconds(at)), .text(id)])
    }

    package func drop(_ id: String) async throws {
        try await run("DELETE FROM notices WHERE id = ?", [.text(id)])
    }

    package func nextDue() async throws -> Date? {
        let rows = try await self.rows("SELECT min(max(not_before, coalesce(claimed_until, 0))) AS due FROM notices WHERE sent IS NULL", [])
        return rows.first?.column("due")?.integer.map { Self.date(SQLiteInt64($0)) }
    }

    package func release(claimants: [String]) async throws {
        for claimant in claimants {
            try await run("UPDATE notices SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ? AND sent IS NULL", [.text(claimant)])
        }
    }

    package func claimants() async throws -> [String] {
        try await rows("SELECT DISTINCT claimed_by FROM notices WHERE sent IS NULL AND claimed_by IS NOT NULL", []).compactMap { $0.column("claimed_by")?.string }
    }

    /// Every notice the file holds, sent or not, oldest first: for tests and `doctor`.
    package func notices() async throws -> [(delivery: NoticeDelivery, sent: Date?)] {
        let rows = try await self.rows("SELECT delivery, attempts, not_before, sent FROM notices ORDER BY since, id", [])
        return rows.compactMap { row in
            guard let text = row.column("delivery")?.string, let value = try? JSONValue.parse(Data(text.utf8)),
                  let attempts = row.column("attempts")?.integer, let notBefore = row.column("not_before")?.integer,
                  let delivery = NoticeDelivery(json: value, attempts: attempts, notBefore: Self.date(SQLiteInt64(notBefore))) else { return nil }
            return (delivery, row.column("sent")?.integer.map { Self.date(SQLiteInt64($0)) })
        }
    }
}
