-- Accounts, their API keys, and tracking requests.

CREATE TABLE accounts (
    id         uuid PRIMARY KEY,
    name       text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL
);

CREATE TABLE api_keys (
    id         uuid PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts (id),
    prefix     text NOT NULL UNIQUE,
    hash       bytea NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
);

CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE tracking_requests (
    id                uuid PRIMARY KEY,
    account_id        uuid NOT NULL REFERENCES accounts (id),
    request_type      text NOT NULL,
    request_number    text NOT NULL,
    number_normalized text NOT NULL,
    scac              text,
    auto_detect_scac  boolean NOT NULL,
    ref_numbers       jsonb NOT NULL,
    shipment_tags     jsonb NOT NULL,
    status            text NOT NULL,
    failed_reason     text,
    is_retrying       boolean NOT NULL,
    retry_count       integer,
    tracked_object_id uuid,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL
);

-- The duplicate rule: one open request per account, normalized number and carrier.
CREATE UNIQUE INDEX tracking_requests_open_unique
    ON tracking_requests (account_id, number_normalized, (COALESCE(scac, '')))
    WHERE status IN ('pending', 'awaiting_manifest', 'created');

CREATE INDEX tracking_requests_account_created
    ON tracking_requests (account_id, created_at DESC, id DESC);
