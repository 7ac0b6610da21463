-- The history store in PostgreSQL, schema version 3 (docs/notifications.md, "At least once").
-- The outbox of notices, shared by the replicas: a row per change and target. Every replica
-- that saw a change inserts its notices under the id "<change>-<target>", the change being the
-- one row schema 2 stores for it however many replicas saw it, so the fleet keeps each notice
-- once (ON CONFLICT DO NOTHING). Senders claim rows (claimed_by, claimed_until) with
-- FOR UPDATE SKIP LOCKED in one statement and hold no transaction across the send, so one
-- replica sends each notice and another takes it over when that one's claim runs out or its
-- process is gone. Times are milliseconds since 1970, as the claims compare them.

CREATE TABLE conditions_notices (
    id text PRIMARY KEY,
    urn text NOT NULL,
    target text NOT NULL,
    delivery text NOT NULL,          -- the notice and the change, JSON as conditions wrote it
    since bigint NOT NULL,           -- when it could first be sent: maxAge counts from here
    not_before bigint NOT NULL,      -- the next attempt, not earlier
    attempts integer NOT NULL DEFAULT 0,
    sent bigint,                     -- when the target answered 2xx; NULL while pending
    claimed_by text,
    claimed_until bigint
);

CREATE INDEX conditions_notices_pending ON conditions_notices (not_before) WHERE sent IS NULL;
CREATE INDEX conditions_notices_by_target ON conditions_notices (urn, target) WHERE sent IS NULL;
