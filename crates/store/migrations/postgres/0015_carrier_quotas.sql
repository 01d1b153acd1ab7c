-- A carrier's quota, shared by every process (domain/src/quota.rs): the rate's theoretical
-- arrival time (Unix microseconds) and the calls of the current UTC day. Taken by
-- compare-and-swap, so concurrent trackers never both spend the same call.
CREATE TABLE carrier_quotas (
    scac   text PRIMARY KEY,
    tat_us bigint NOT NULL,
    day    bigint NOT NULL,
    used   bigint NOT NULL
);
