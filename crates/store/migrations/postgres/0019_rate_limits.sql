-- Per-account API rate limits kept by every API process together: each bucket's
-- theoretical arrival time (GCRA, domain/src/rate.rs), taken by compare-and-swap.
CREATE TABLE rate_limits (
    key    text PRIMARY KEY,
    tat_us bigint NOT NULL
);
