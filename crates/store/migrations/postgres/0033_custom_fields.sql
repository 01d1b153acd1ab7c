-- Custom fields (compat-api.md §10): the fields an account defines, the options of its
-- enum fields, and each field's value on a shipment, container or tracking request (one
-- per field and record). A definition's slug is unique among the account's definitions
-- of its entity type. Deleting a definition deletes its options and values.
CREATE TABLE custom_field_definitions (
    id               uuid PRIMARY KEY,
    account_id       uuid NOT NULL REFERENCES accounts (id),
    entity_type      text NOT NULL,
    api_slug         text NOT NULL,
    display_name     text NOT NULL,
    description      text,
    data_type        text NOT NULL,
    reference_type   text,
    validation       jsonb,
    default_format   text,
    default_value    jsonb,
    reference_number boolean NOT NULL,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    UNIQUE (account_id, entity_type, api_slug)
);

CREATE INDEX custom_field_definitions_account
    ON custom_field_definitions (account_id, created_at DESC, id DESC);

CREATE TABLE custom_field_options (
    id            uuid PRIMARY KEY,
    definition_id uuid NOT NULL REFERENCES custom_field_definitions (id) ON DELETE CASCADE,
    label         text NOT NULL,
    value         text NOT NULL,
    position      bigint,
    UNIQUE (definition_id, value)
);

CREATE TABLE custom_fields (
    id            uuid PRIMARY KEY,
    account_id    uuid NOT NULL REFERENCES accounts (id),
    definition_id uuid NOT NULL REFERENCES custom_field_definitions (id) ON DELETE CASCADE,
    entity_type   text NOT NULL,
    entity_id     uuid NOT NULL,
    value         jsonb NOT NULL,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    UNIQUE (definition_id, entity_id)
);

CREATE INDEX custom_fields_account ON custom_fields (account_id, created_at DESC, id DESC);
CREATE INDEX custom_fields_entity ON custom_fields (account_id, entity_id);
