-- The history store in PostgreSQL, schema version 1 (docs/history.md, "PostgreSQL").
-- The same rows as the SQLite store: one per change of a URN, from the first observation that
-- showed its state to the last. Applied once, inside the transaction that holds the migration
-- lock and records version 1 in conditions_history_migrations; never edited once shipped.

CREATE TABLE conditions_history_changes (
    id bigserial PRIMARY KEY,       -- in write order: what a client resuming after change n asks for
    urn text NOT NULL,
    first_seen timestamptz NOT NULL,
    last_seen timestamptz NOT NULL,
    observations integer NOT NULL DEFAULT 1,
    status text NOT NULL,
    key bytea NOT NULL,             -- 16 bytes of SHA-256 of the change key
    result text NOT NULL            -- the result object, JSON as conditions wrote it
);

-- One URN's window, and its latest change (the backward end of the same range).
CREATE INDEX conditions_history_changes_by_urn ON conditions_history_changes (urn, last_seen);
-- Pruning: the changes last seen longest ago.
CREATE INDEX conditions_history_changes_by_age ON conditions_history_changes (last_seen);

-- Records one poll's observations in order, in the caller's one statement (so one transaction):
-- each extends its URN's latest change when the change key is the same, or starts a new change;
-- then at most `pruned_per_observation` expired changes go. Returns, for each observation, the
-- id of the change it belongs to.
--
-- Writers on other connections (another watch, a replica of serve) take a transaction-scoped
-- advisory lock per URN, in URN order so two writers of overlapping URNs never deadlock: reading
-- a URN's latest change and writing the next is one step for each writer, as SQLite's write lock
-- makes it. Pruning skips rows another writer is deleting rather than waiting for it.
CREATE FUNCTION conditions_history_record(
    urns text[], at_ms bigint[], keys bytea[], statuses text[], results text[],
    retain_ms bigint, pruned_per_observation integer
) RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
    ids bigint[] := '{}';
    latest record;
    change bigint;
    observed timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('conditions_history:' || urn, 0))
       FROM (SELECT DISTINCT u AS urn FROM unnest(urns) AS u ORDER BY 1) AS locked;
    FOR i IN 1 .. coalesce(array_length(urns, 1), 0) LOOP
        observed := to_timestamp(at_ms[i] / 1000.0);
        SELECT id, key INTO latest FROM conditions_history_changes
         WHERE urn = urns[i] ORDER BY last_seen DESC, id DESC LIMIT 1;
        IF FOUND AND latest.key = keys[i] THEN
            UPDATE conditions_history_changes
               SET last_seen = greatest(last_seen, observed), observations = observations + 1
             WHERE id = latest.id;
            change := latest.id;
        ELSE
            INSERT INTO conditions_history_changes (urn, first_seen, last_seen, status, key, result)
            VALUES (urns[i], observed, observed, statuses[i], keys[i], results[i])
            RETURNING id INTO change;
        END IF;
        ids := ids || change;
        DELETE FROM conditions_history_changes WHERE id IN (
            SELECT id FROM conditions_history_changes
             WHERE last_seen < to_timestamp((at_ms[i] - retain_ms) / 1000.0)
             ORDER BY last_seen LIMIT pruned_per_observation
               FOR UPDATE SKIP LOCKED);
    END LOOP;
    RETURN ids;
END
$$;
