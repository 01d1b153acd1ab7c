-- What tracking found: shipments, their containers and transport events, the domain events
-- waiting in the outbox, and the reference data (ports, terminals, vessels) carriers named.
-- Carrier-reported details that are read whole (a shipment's route, a container's times)
-- are JSON documents; everything filtered or joined on is a column.

CREATE TABLE shipments (
    id                    TEXT PRIMARY KEY NOT NULL,
    account_id            TEXT NOT NULL REFERENCES accounts (id),
    tracking_request_id   TEXT NOT NULL UNIQUE REFERENCES tracking_requests (id),
    bill_of_lading_number TEXT NOT NULL,
    normalized_number     TEXT NOT NULL,
    scac                  TEXT NOT NULL,
    ref_numbers           TEXT NOT NULL,
    tags                  TEXT NOT NULL,
    pol_locode            TEXT,
    pod_locode            TEXT,
    route                 TEXT NOT NULL,
    source                TEXT NOT NULL,
    last_attempted_at     TEXT,
    last_succeeded_at     TEXT,
    last_changed_at       TEXT NOT NULL,
    stopped_at            TEXT,
    stopped_reason        TEXT,
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL
) STRICT;

CREATE INDEX shipments_account_created ON shipments (account_id, created_at DESC, id DESC);

CREATE TABLE containers (
    id             TEXT PRIMARY KEY NOT NULL,
    account_id     TEXT NOT NULL REFERENCES accounts (id),
    shipment_id    TEXT NOT NULL REFERENCES shipments (id),
    number         TEXT NOT NULL,
    current_status TEXT NOT NULL,
    ref_numbers    TEXT NOT NULL,
    details        TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    UNIQUE (shipment_id, number)
) STRICT;

CREATE INDEX containers_account_created ON containers (account_id, created_at DESC, id DESC);
CREATE INDEX containers_account_number ON containers (account_id, number);

-- Stored once per (container, event, location, time).
CREATE TABLE transport_events (
    id              TEXT PRIMARY KEY NOT NULL,
    account_id      TEXT NOT NULL REFERENCES accounts (id),
    shipment_id     TEXT NOT NULL REFERENCES shipments (id),
    container_id    TEXT NOT NULL REFERENCES containers (id),
    event           TEXT NOT NULL,
    timestamp       TEXT NOT NULL,
    location_locode TEXT NOT NULL,
    location_name   TEXT,
    facility        TEXT,
    vessel_imo      TEXT,
    vessel_name     TEXT,
    voyage_number   TEXT,
    created_at      TEXT NOT NULL,
    UNIQUE (container_id, event, location_locode, timestamp)
) STRICT;

CREATE INDEX transport_events_shipment ON transport_events (shipment_id, timestamp, id);

-- The outbox: each domain event once per dedupe key, written with the change that caused it.
CREATE TABLE domain_events (
    id           TEXT PRIMARY KEY NOT NULL,
    account_id   TEXT NOT NULL REFERENCES accounts (id),
    name         TEXT NOT NULL,
    subject_type TEXT NOT NULL,
    subject_id   TEXT NOT NULL,
    shipment_id  TEXT,
    detail       TEXT NOT NULL,
    dedupe_key   TEXT NOT NULL UNIQUE,
    created_at   TEXT NOT NULL
) STRICT;

CREATE INDEX domain_events_account_created ON domain_events (account_id, created_at, id);

-- Reference data learned from carrier answers; ids are derived from the codes.
CREATE TABLE ports (
    id         TEXT PRIMARY KEY NOT NULL,
    locode     TEXT NOT NULL UNIQUE,
    name       TEXT,
    updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE terminals (
    id          TEXT PRIMARY KEY NOT NULL,
    code        TEXT NOT NULL UNIQUE,
    port_locode TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) STRICT;

CREATE TABLE vessels (
    id         TEXT PRIMARY KEY NOT NULL,
    imo        TEXT NOT NULL UNIQUE,
    name       TEXT,
    updated_at TEXT NOT NULL
) STRICT;
