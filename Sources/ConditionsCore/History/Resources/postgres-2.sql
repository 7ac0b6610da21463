-- The history store in PostgreSQL, schema version 2 (docs/history.md, "PostgreSQL").
-- Replicas share one database, and one that lost it spools what it saw and writes it later
-- (HistorySpool). So observations can arrive out of time order, and the same state of a URN
-- can arrive from several replicas: each observation now joins the change that was current
-- at its own time, or the change right after it when that one has its key, and starts a new
-- change only when neither does, so a change seen by several replicas is stored once. In
-- order, this is what version 1 did. A new change is announced on `conditions_changes`
-- ("<id> <urn>"): PostgreSQL delivers it when the transaction commits, so every replica's
-- event streams hear exactly the changes that were stored.

CREATE INDEX conditions_history_changes_by_urn_first ON conditions_history_changes (urn, first_seen);

CREATE OR REPLACE FUNCTION conditions_history_record(
    urns text[], at_ms bigint[], keys bytea[], statuses text[], results text[],
    retain_ms bigint, pruned_per_observation integer
) RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
    ids bigint[] := '{}';
    current record;
    following record;
    change bigint;
    observed timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('conditions_history:' || urn, 0))
       FROM (SELECT DISTINCT u AS urn FROM unnest(urns) AS u ORDER BY 1) AS locked;
    FOR i IN 1 .. coalesce(array_length(urns, 1), 0) LOOP
        observed := to_timestamp(at_ms[i] / 1000.0);
        change := NULL;
        -- The change current at the observation's time.
        SELECT id, key INTO current FROM conditions_history_changes
         WHERE urn = urns[i] AND first_seen <= observed ORDER BY first_seen DESC, id DESC LIMIT 1;
        IF FOUND AND current.key = keys[i] THEN
            UPDATE conditions_history_changes
               SET last_seen = greatest(last_seen, observed), observations = observations + 1
             WHERE id = current.id;
            change := current.id;
        ELSE
            -- The change right after it, seen first by another replica a little later.
            SELECT id, key INTO following FROM conditions_history_changes
             WHERE urn = urns[i] AND first_seen > observed ORDER BY first_seen, id LIMIT 1;
            IF FOUND AND following.key = keys[i] THEN
                UPDATE conditions_history_changes
                   SET first_seen = observed, observations = observations + 1
                 WHERE id = following.id;
                change := following.id;
            END IF;
        END IF;
        IF change IS NULL THEN
            INSERT INTO conditions_history_changes (urn, first_seen, last_seen, status, key, result)
            VALUES (urns[i], observed, observed, statuses[i], keys[i], results[i])
            RETURNING id INTO change;
            PERFORM pg_notify('conditions_changes', change || ' ' || urns[i]);
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
