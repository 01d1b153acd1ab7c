-- The work queue: one row per (kind, key). A claim sets a lease; a crashed worker's lease
-- runs out and the job can be claimed again. `revision` counts schedules, so a job
-- scheduled again while held is not lost when the holder completes it.
CREATE TABLE jobs (
    id          TEXT PRIMARY KEY NOT NULL,
    kind        TEXT NOT NULL,
    key         TEXT NOT NULL,
    due_at      TEXT NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    revision    INTEGER NOT NULL DEFAULT 0,
    lease_until TEXT,
    lease_token TEXT,
    created_at  TEXT NOT NULL,
    UNIQUE (kind, key)
) STRICT;

CREATE INDEX jobs_due ON jobs (kind, due_at);
