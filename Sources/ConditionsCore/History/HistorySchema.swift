/// The store's schema as numbered migrations. `PRAGMA user_version` says how many have run; a
/// new version appends a migration here and never edits one that has shipped.
enum HistorySchema {
    /// `PRAGMA application_id`: "COND", so the store is told apart from other SQLite files.
    static let applicationID: Int = 0x434F_4E44

    /// The migrations in order; `migrations[n]` takes a store from version n to n + 1.
    static let migrations: [[String]] = [
        // 1: changes, and the view every observation is inserted into.
        [
            """
            CREATE TABLE changes (
                id INTEGER PRIMARY KEY,
                urn TEXT NOT NULL,
                first_seen INTEGER NOT NULL,  -- milliseconds since 1970, UTC
                last_seen INTEGER NOT NULL,
                observations INTEGER NOT NULL DEFAULT 1,
                status TEXT NOT NULL,
                key BLOB NOT NULL,            -- 16 bytes of SHA-256 of the change key
                result TEXT NOT NULL          -- the result object, JSON
            )
            """,
            // One URN's window, and its latest change (the backward end of the same range).
            "CREATE INDEX changes_by_urn ON changes (urn, last_seen)",
            // Pruning: the changes last seen longest ago.
            "CREATE INDEX changes_by_age ON changes (last_seen)",
            "CREATE VIEW observations (urn, at, key, status, result, cutoff) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE 0",
            // One INSERT per poll, one transaction: SQLite runs a statement's triggers inside it,
            // so collapsing, recording and pruning commit together or not at all, and no other
            // writer (another watch, a serve) slips in between reading the latest change and
            // writing the next. A write statement takes the write lock before it reads, so this
            // never meets SQLITE_BUSY_SNAPSHOT, only the busy timeout.
            """
            CREATE TRIGGER observe INSTEAD OF INSERT ON observations BEGIN
                UPDATE changes SET last_seen = max(last_seen, NEW.at), observations = observations + 1
                 WHERE id = (SELECT id FROM changes WHERE urn = NEW.urn ORDER BY last_seen DESC, id DESC LIMIT 1)
                   AND key = NEW.key;
                INSERT INTO changes (urn, first_seen, last_seen, status, key, result)
                 SELECT NEW.urn, NEW.at, NEW.at, NEW.status, NEW.key, NEW.result
                 WHERE NOT EXISTS (SELECT 1 FROM changes
                                    WHERE id = (SELECT id FROM changes WHERE urn = NEW.urn ORDER BY last_seen DESC, id DESC LIMIT 1)
                                      AND key = NEW.key);
                DELETE FROM changes WHERE id IN (SELECT id FROM changes WHERE last_seen < NEW.cutoff ORDER BY last_seen LIMIT \(prunedPerObservation));
            END
            """,
        ],
        // 2: the outbox of notices (docs/notifications.md): a row per notice and target, stored
        // before it is sent, marked sent when the target answers 2xx, claimed by one sender at
        // a time (another process's claim runs out after `claimed_until`).
        [
            """
            CREATE TABLE notices (
                id TEXT PRIMARY KEY,           -- <change>-<target>: the webhook-id, the same on every attempt
                urn TEXT NOT NULL,
                target TEXT NOT NULL,
                delivery TEXT NOT NULL,        -- the notice and the change, JSON (NoticeDelivery.json)
                since INTEGER NOT NULL,        -- milliseconds: when it could first be sent (maxAge counts from here)
                not_before INTEGER NOT NULL,   -- milliseconds: the next attempt, not earlier
                attempts INTEGER NOT NULL DEFAULT 0,
                sent INTEGER,                  -- milliseconds: when the target answered 2xx; NULL while pending
                claimed_by TEXT,
                claimed_until INTEGER
            )
            """,
            "CREATE INDEX notices_pending ON notices (sent, not_before)",
            "CREATE INDEX notices_by_target ON notices (urn, target, sent)",
        ],
    ]

    /// What an `INSERT INTO observations` returns for each row: its URN, instant and key, and
    /// the change it now belongs to. SQLite computes a `RETURNING` row right after that row's
    /// trigger ran, inside the same statement and so under the same write lock: no other writer
    /// can come between. The trigger either extended the URN's latest change (which then stays
    /// its latest, having the newest `last_seen`) or inserted one, which has the highest id of
    /// the URN but, written with an instant older than the latest's `last_seen` (another
    /// process's clock), need not be its latest: hence the latest when its key is the
    /// observation's, else the highest id.
    static let returningChange = """
        RETURNING urn, at, key, (SELECT CASE WHEN latest.key = observations.key THEN latest.id
                                            ELSE (SELECT max(id) FROM changes WHERE urn = observations.urn) END
                                   FROM (SELECT id, key FROM changes WHERE urn = observations.urn
                                          ORDER BY last_seen DESC, id DESC LIMIT 1) AS latest) AS change
        """

    /// The version this program writes.
    static var latest: Int { migrations.count }

    /// At most this many expired changes go per observation recorded, so a write's cost stays
    /// bounded however much expired at once (a store unused for a year); `--vacuum` takes the rest.
    static let prunedPerObservation = 8
}
