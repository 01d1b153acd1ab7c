-- Custom field values a create staged (`initial_custom_fields`) for the shipment and the
-- containers its request will find, written with the request; each is set on its record
-- when the record first appears (`container_number` null: every container). Written in
-- the create's transaction, which is undone whole when the create is a duplicate, so the
-- request needs no foreign key here (its rows are checked after the statements run).
CREATE TABLE custom_fields_staged (
    id                  uuid PRIMARY KEY,
    tracking_request_id uuid NOT NULL,
    definition_id       uuid NOT NULL REFERENCES custom_field_definitions (id) ON DELETE CASCADE,
    entity_type         text NOT NULL,
    container_number    text,
    value               jsonb NOT NULL
);

CREATE INDEX custom_fields_staged_request ON custom_fields_staged (tracking_request_id);
