-- The records frozen with domain events, kept once by content. A record (a JSON:API
-- resource as it stood when an event was recorded) is stored under its `key`: its owner
-- (the event's shipment, or its account) and a SHA-256 of its JSON text. The events of one
-- lookup share their shipment and container records, and an unchanged record is shared by
-- the shipment's later lookups, so each is stored once. An event's `included` holds the
-- keys of its records in order; rows written before this migration hold the records
-- themselves, and a reader takes either.
-- A rowid table with the key in its own index: records of a few kilobytes in a table
-- keyed by them would split its pages.
CREATE TABLE frozen_records (
    key  TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL
) STRICT;
