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
        // 2: each observation's change id, for `record`'s answer. The trigger also notes, under
        // the writing call's token, the change each observation now belongs to; the call reads
        // and deletes its notes right after (`HistoryStore.record`). An INSERT naming the six
        // columns of version 1 (no token) still works and leaves no note.
        [
            "CREATE TABLE recorded (seq INTEGER PRIMARY KEY, token INTEGER NOT NULL, change_id INTEGER NOT NULL)",
            "DROP TRIGGER observe",
            "DROP VIEW observations",
            "CREATE VIEW observations (urn, at, key, status, result, cutoff, token) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE 0",
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
                INSERT INTO recorded (token, change_id)
                 SELECT NEW.token, id FROM changes WHERE NEW.token IS NOT NULL AND urn = NEW.urn ORDER BY last_seen DESC, id DESC LIMIT 1;
                DELETE FROM changes WHERE id IN (SELECT id FROM changes WHERE last_seen < NEW.cutoff ORDER BY last_seen LIMIT \(prunedPerObservation));
            END
            """,
        ],
    ]

    /// The version this program writes.
    static var latest: Int { migrations.count }

    /// At most this many expired changes go per observation recorded, so a write's cost stays
    /// bounded however much expired at once (a store unused for a year); `--vacuum` takes the rest.
    static let prunedPerObservation = 8
}
