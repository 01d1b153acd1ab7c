-- The work queue: one row per (kind, key). Claims use FOR UPDATE SKIP LOCKED and set a
-- lease; a crashed worker's lease runs out and the job can be claimed again. `revision`
-- counts schedules, so a job scheduled again while held is not lost when completed.
CREATE TABLE jobs (
    id          uuid PRIMARY KEY,
    kind        text NOT NULL,
    key         text NOT NULL,
    due_at      timestamptz NOT NULL,
    attempts    integer NOT NULL DEFAULT 0,
    revision    bigint NOT NULL DEFAULT 0,
    lease_until timestamptz,
    lease_token uuid,
    created_at  timestamptz NOT NULL,
    UNIQUE (kind, key)
);

CREATE INDEX jobs_due ON jobs (kind, due_at);
