-- Custom field values a create staged (`initial_custom_fields`) for the shipment and the
-- containers its request will find, written with the request; each is set on its record
-- when the record first appears (`container_number` null: every container). Written in
-- the create's transaction, which is undone whole when the create is a duplicate, so the
-- request needs no foreign key here (its rows are checked after the statements run).
CREATE TABLE custom_fields_staged (
    id                  TEXT PRIMARY KEY NOT NULL,
    tracking_request_id TEXT NOT NULL,
    definition_id       TEXT NOT NULL REFERENCES custom_field_definitions (id) ON DELETE CASCADE,
    entity_type         TEXT NOT NULL,
    container_number    TEXT,
    value               TEXT NOT NULL
) STRICT;

CREATE INDEX custom_fields_staged_request ON custom_fields_staged (tracking_request_id);
