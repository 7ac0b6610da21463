import ConditionsJSON
import Foundation
import PostgresNIO

/// The database's outbox of notices (schema version 3), shared by every replica: each notice
/// stored once per change and target, each claimed and sent by one replica.
extension PostgresHistoryStore: NoticeOutbox {
    package var isDurable: Bool { true }

    package func enqueue(_ deliveries: [NoticeDelivery]) async throws {
        for delivery in deliveries {
            let since = Self.milliseconds(delivery.since), notBefore = Self.milliseconds(delivery.notBefore)
            let text = delivery.json.serialized()
            // A pending older notice of the URN and target goes; a newer one (a replica's spool
            // written late) keeps this one out. One statement, so no replica sees neither.
            try await execute("""
                WITH newer AS (SELECT 1 FROM conditions_notices
                                WHERE urn = \(delivery.urn) AND target = \(delivery.target) AND sent IS NULL AND since > \(since) AND id <> \(delivery.id)),
                     gone AS (DELETE FROM conditions_notices
                               WHERE urn = \(delivery.urn) AND target = \(delivery.target) AND sent IS NULL AND since <= \(since) AND id <> \(delivery.id)
                                 AND NOT EXISTS (SELECT 1 FROM newer))
                INSERT INTO conditions_notices (id, urn, target, delivery, since, not_before, attempts)
                SELECT \(delivery.id), \(delivery.urn), \(delivery.target), \(text), \(since), \(notBefore), \(Int32(delivery.attempts))
                 WHERE NOT EXISTS (SELECT 1 FROM newer)
                ON CONFLICT (id) DO NOTHING
                """)
        }
    }

    package func claim(now: Date, limit: Int, for seconds: Double, claimant: String) async throws -> [NoticeDelivery] {
        let at = Self.milliseconds(now), until = Self.milliseconds(now.addingTimeInterval(seconds))
        return try await notices("""
            UPDATE conditions_notices SET claimed_by = \(claimant), claimed_until = \(until)
             WHERE id IN (SELECT id FROM conditions_notices
                           WHERE sent IS NULL AND not_before <= \(at) AND (claimed_until IS NULL OR claimed_until <= \(at))
                           ORDER BY not_before LIMIT \(Int32(limit)) FOR UPDATE SKIP LOCKED)
            RETURNING delivery, attempts, not_before
            """)
    }

    package func delivered(_ id: String, at: Date) async throws {
        let sent = Self.milliseconds(at), cutoff = Self.milliseconds(at.addingTimeInterval(-retain))
        try await execute("UPDATE conditions_notices SET sent = \(sent), claimed_by = NULL, claimed_until = NULL WHERE id = \(id)")
        // Sent notices are kept as long as changes are.
        try await execute("""
            DELETE FROM conditions_notices WHERE id IN (SELECT id FROM conditions_notices WHERE sent < \(cutoff) LIMIT 8 FOR UPDATE SKIP LOCKED)
            """)
    }

    package func retry(_ id: String, attempts: Int, at: Date) async throws {
        let next = Self.milliseconds(at)
        try await execute("UPDATE conditions_notices SET attempts = \(Int32(attempts)), not_before = \(next), claimed_by = NULL, claimed_until = NULL WHERE id = \(id)")
    }

    package func drop(_ id: String) async throws {
        try await execute("DELETE FROM conditions_notices WHERE id = \(id)")
    }

    package func nextDue() async throws -> Date? {
        let due: [Int64?] = try await rows("SELECT min(greatest(not_before, coalesce(claimed_until, 0))) FROM conditions_notices WHERE sent IS NULL", as: Int64?.self)
        return due.first.flatMap { $0 }.map(Self.date)
    }

    package func release(claimants: [String]) async throws {
        for claimant in claimants {
            try await execute("UPDATE conditions_notices SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = \(claimant) AND sent IS NULL")
        }
    }

    package func claimants() async throws -> [String] {
        try await rows("SELECT DISTINCT claimed_by FROM conditions_notices WHERE sent IS NULL AND claimed_by IS NOT NULL", as: String.self)
    }

    /// Deliveries of rows of (delivery, attempts, not_before).
    private func notices(_ query: PostgresQuery) async throws -> [NoticeDelivery] {
        return try await triples(query).compactMap { text, attempts, notBefore in
            guard let value = try? JSONValue.parse(Data(text.utf8)) else { return nil }
            return NoticeDelivery(json: value, attempts: Int(attempts), notBefore: Self.date(notBefore))
        }
    }
}
