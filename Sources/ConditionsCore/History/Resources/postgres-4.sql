-- The history store in PostgreSQL, schema version 4 (docs/history.md, "A URN's changes
-- together"). A poll writes every URN at once, so one URN's changes land one to a heap page
-- and a week of them (2,016 at one every 5 minutes) reads ~2,000 pages. Packing moves the
-- changes that have settled (last seen an hour or more ago) to the end of the table in URN
-- order, keeping their ids, so a URN's hour of changes shares a page or two and its week reads
-- a few hundred (docs/performance.md, "Issue 45", §4). `packed` marks the rows moved, so each
-- moves once; rows written since (and a packed change a late observation extends) wait for the
-- next pass.

ALTER TABLE conditions_history_changes ADD COLUMN packed boolean NOT NULL DEFAULT false;

-- The changes still to pack, oldest first.
CREATE INDEX conditions_history_changes_unpacked ON conditions_history_changes (last_seen) WHERE NOT packed;

-- Packs at most `most` (NULL: every) changes last seen before `settled_ms`, oldest first, and
-- returns how many moved. One packer at a time across the fleet: another replica packing
-- makes this return 0 at once. A moved row is deleted and inserted again with its id, so it
-- holds the advisory lock of each URN it moves, in URN order, as conditions_history_record
-- does: no writer reads a URN's latest change while it is being moved, and none deadlocks.
-- A change extended after it was chosen is left where it is (the DELETE checks again).
CREATE FUNCTION conditions_history_pack(settled_ms bigint, most integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    settled timestamptz := to_timestamp(settled_ms / 1000.0);
    chosen bigint[];
    moving text[];
    moved integer;
BEGIN
    -- "COND" "PACK"
    IF NOT pg_try_advisory_xact_lock(4850181379012510539) THEN
        RETURN 0;
    END IF;
    SELECT array_agg(id) INTO chosen FROM (
        SELECT id FROM conditions_history_changes
         WHERE NOT packed AND last_seen < settled ORDER BY last_seen LIMIT most) AS oldest;
    IF chosen IS NULL THEN
        RETURN 0;
    END IF;
    SELECT array_agg(urn ORDER BY urn) INTO moving FROM (
        SELECT DISTINCT urn FROM conditions_history_changes WHERE id = ANY(chosen)) AS urns;
    PERFORM pg_advisory_xact_lock(hashtextextended('conditions_history:' || urn, 0))
       FROM (SELECT urn FROM unnest(moving) AS urn ORDER BY 1) AS locked;
    WITH gone AS (
        DELETE FROM conditions_history_changes
         WHERE id = ANY(chosen) AND NOT packed AND last_seen < settled
        RETURNING *)
    INSERT INTO conditions_history_changes (id, urn, first_seen, last_seen, observations, status, key, result, packed)
    SELECT id, urn, first_seen, last_seen, observations, status, key, result, true
      FROM gone ORDER BY urn, first_seen, id;
    GET DIAGNOSTICS moved = ROW_COUNT;
    RETURN moved;
END
$$;
