-- Every event a carrier reported about a container, as reported (the container's
-- `raw_events`): once per (container, carrier event id); a later version of the event
-- (a later `reported_at`, the carrier's eventCreatedDateTime) replaces the kept one.
CREATE TABLE raw_events (
    id              uuid PRIMARY KEY,
    account_id      uuid NOT NULL REFERENCES accounts (id),
    shipment_id     uuid NOT NULL REFERENCES shipments (id),
    container_id    uuid NOT NULL REFERENCES containers (id),
    source_id       text NOT NULL,
    event_type      text NOT NULL,
    code            text NOT NULL,
    classifier      text NOT NULL,
    milestone       text,
    occurred_at     timestamptz NOT NULL,
    reported_at     timestamptz NOT NULL,
    location_locode text,
    location_name   text,
    facility        text,
    vessel_imo      text,
    vessel_name     text,
    voyage_number   text,
    call_id         text,
    empty_indicator text,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    UNIQUE (container_id, source_id)
);

CREATE INDEX raw_events_container ON raw_events (container_id, occurred_at, id);
CREATE INDEX raw_events_shipment ON raw_events (shipment_id);
