-- Custom fields (compat-api.md §10): the fields an account defines, the options of its
-- enum fields, and each field's value on a shipment, container or tracking request (one
-- per field and record). A definition's slug is unique among the account's definitions
-- of its entity type. Deleting a definition deletes its options and values.
CREATE TABLE custom_field_definitions (
    id               TEXT PRIMARY KEY NOT NULL,
    account_id       TEXT NOT NULL REFERENCES accounts (id),
    entity_type      TEXT NOT NULL,
    api_slug         TEXT NOT NULL,
    display_name     TEXT NOT NULL,
    description      TEXT,
    data_type        TEXT NOT NULL,
    reference_type   TEXT,
    validation       TEXT,
    default_format   TEXT,
    default_value    TEXT,
    reference_number INTEGER NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (account_id, entity_type, api_slug)
) STRICT;

CREATE INDEX custom_field_definitions_account
    ON custom_field_definitions (account_id, created_at DESC, id DESC);

CREATE TABLE custom_field_options (
    id            TEXT PRIMARY KEY NOT NULL,
    definition_id TEXT NOT NULL REFERENCES custom_field_definitions (id) ON DELETE CASCADE,
    label         TEXT NOT NULL,
    value         TEXT NOT NULL,
    position      INTEGER,
    UNIQUE (definition_id, value)
) STRICT;

CREATE TABLE custom_fields (
    id            TEXT PRIMARY KEY NOT NULL,
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    definition_id TEXT NOT NULL REFERENCES custom_field_definitions (id) ON DELETE CASCADE,
    entity_type   TEXT NOT NULL,
    entity_id     TEXT NOT NULL,
    value         TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    UNIQUE (definition_id, entity_id)
) STRICT;

CREATE INDEX custom_fields_account ON custom_fields (account_id, created_at DESC, id DESC);
CREATE INDEX custom_fields_entity ON custom_fields (account_id, entity_id);
