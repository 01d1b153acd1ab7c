-- Kept carrier events are JSON documents, replaced whole when they change: one per
-- container (its equipment events) and one per shipment (its vessels' and documents'
-- events, listed with every container). A lookup writes one row per changed document
-- instead of one per event, which halved the tracker's throughput. Replaces 0008's
-- row-per-event table.
DROP TABLE raw_events;

CREATE TABLE raw_event_documents (
    id           TEXT PRIMARY KEY NOT NULL,
    account_id   TEXT NOT NULL REFERENCES accounts (id),
    shipment_id  TEXT NOT NULL REFERENCES shipments (id),
    container_id TEXT REFERENCES containers (id),
    events       TEXT NOT NULL,
    updated_at   TEXT NOT NULL
) STRICT;

CREATE INDEX raw_event_documents_shipment ON raw_event_documents (shipment_id);
