-- Per-account API rate limits kept by every API process together: each bucket's
-- theoretical arrival time (GCRA, domain/src/rate.rs), taken by compare-and-swap. (One
-- process serves a SQLite file and keeps its limits in memory; the table is here so both
-- backends have the same schema and pass the same suite.)
CREATE TABLE rate_limits (
    key    TEXT PRIMARY KEY NOT NULL,
    tat_us INTEGER NOT NULL
) STRICT;
