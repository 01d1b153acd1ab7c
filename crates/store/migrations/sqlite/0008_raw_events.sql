-- Every event a carrier reported about a container, as reported (the container's
-- `raw_events`): once per (container, carrier event id); a later version of the event
-- (a later `reported_at`, the carrier's eventCreatedDateTime) replaces the kept one.
CREATE TABLE raw_events (
    id              TEXT PRIMARY KEY NOT NULL,
    account_id      TEXT NOT NULL REFERENCES accounts (id),
    shipment_id     TEXT NOT NULL REFERENCES shipments (id),
    container_id    TEXT NOT NULL REFERENCES containers (id),
    source_id       TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    code            TEXT NOT NULL,
    classifier      TEXT NOT NULL,
    milestone       TEXT,
    occurred_at     TEXT NOT NULL,
    reported_at     TEXT NOT NULL,
    location_locode TEXT,
    location_name   TEXT,
    facility        TEXT,
    vessel_imo      TEXT,
    vessel_name     TEXT,
    voyage_number   TEXT,
    call_id         TEXT,
    empty_indicator TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    UNIQUE (container_id, source_id)
) STRICT;

CREATE INDEX raw_events_container ON raw_events (container_id, occurred_at, id);
CREATE INDEX raw_events_shipment ON raw_events (shipment_id);
