-- What tracking found: shipments, their containers and transport events, the domain events
-- waiting in the outbox, and the reference data (ports, terminals, vessels) carriers named.
-- Carrier-reported details that are read whole (a shipment's route, a container's times)
-- are JSON documents; everything filtered or joined on is a column.

CREATE TABLE shipments (
    id                    uuid PRIMARY KEY,
    account_id            uuid NOT NULL REFERENCES accounts (id),
    tracking_request_id   uuid NOT NULL UNIQUE REFERENCES tracking_requests (id),
    bill_of_lading_number text NOT NULL,
    normalized_number     text NOT NULL,
    scac                  text NOT NULL,
    ref_numbers           jsonb NOT NULL,
    tags                  jsonb NOT NULL,
    pol_locode            text,
    pod_locode            text,
    route                 jsonb NOT NULL,
    source                text NOT NULL,
    last_attempted_at     timestamptz,
    last_succeeded_at     timestamptz,
    last_changed_at       timestamptz NOT NULL,
    stopped_at            timestamptz,
    stopped_reason        text,
    created_at            timestamptz NOT NULL,
    updated_at            timestamptz NOT NULL
);

CREATE INDEX shipments_account_created ON shipments (account_id, created_at DESC, id DESC);

CREATE TABLE containers (
    id             uuid PRIMARY KEY,
    account_id     uuid NOT NULL REFERENCES accounts (id),
    shipment_id    uuid NOT NULL REFERENCES shipments (id),
    number         text NOT NULL,
    current_status text NOT NULL,
    ref_numbers    jsonb NOT NULL,
    details        jsonb NOT NULL,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    UNIQUE (shipment_id, number)
);

CREATE INDEX containers_account_created ON containers (account_id, created_at DESC, id DESC);
CREATE INDEX containers_account_number ON containers (account_id, number);

-- Stored once per (container, event, location, time).
CREATE TABLE transport_events (
    id              uuid PRIMARY KEY,
    account_id      uuid NOT NULL REFERENCES accounts (id),
    shipment_id     uuid NOT NULL REFERENCES shipments (id),
    container_id    uuid NOT NULL REFERENCES containers (id),
    event           text NOT NULL,
    timestamp       timestamptz NOT NULL,
    location_locode text NOT NULL,
    location_name   text,
    facility        text,
    vessel_imo      text,
    vessel_name     text,
    voyage_number   text,
    created_at      timestamptz NOT NULL,
    UNIQUE (container_id, event, location_locode, timestamp)
);

CREATE INDEX transport_events_shipment ON transport_events (shipment_id, timestamp, id);

-- The outbox: each domain event once per dedupe key, written with the change that caused it.
CREATE TABLE domain_events (
    id           uuid PRIMARY KEY,
    account_id   uuid NOT NULL REFERENCES accounts (id),
    name         text NOT NULL,
    subject_type text NOT NULL,
    subject_id   uuid NOT NULL,
    shipment_id  uuid,
    detail       jsonb NOT NULL,
    dedupe_key   text NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL
);

CREATE INDEX domain_events_account_created ON domain_events (account_id, created_at, id);

-- Reference data learned from carrier answers; ids are derived from the codes.
CREATE TABLE ports (
    id         uuid PRIMARY KEY,
    locode     text NOT NULL UNIQUE,
    name       text,
    updated_at timestamptz NOT NULL
);

CREATE TABLE terminals (
    id          uuid PRIMARY KEY,
    code        text NOT NULL UNIQUE,
    port_locode text NOT NULL,
    updated_at  timestamptz NOT NULL
);

CREATE TABLE vessels (
    id         uuid PRIMARY KEY,
    imo        text NOT NULL UNIQUE,
    name       text,
    updated_at timestamptz NOT NULL
);
