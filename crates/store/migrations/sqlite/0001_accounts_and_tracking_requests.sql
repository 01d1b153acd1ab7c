-- Accounts, their API keys, and tracking requests.
-- Ids are hyphenated UUID text; times are fixed-width RFC 3339 UTC text
-- (YYYY-MM-DDTHH:MM:SS.ffffffZ), so they sort as they compare and read well in the sqlite3 shell.

CREATE TABLE accounts (
    id         TEXT PRIMARY KEY NOT NULL,
    name       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    prefix     TEXT NOT NULL UNIQUE,
    hash       BLOB NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
) STRICT;

CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE tracking_requests (
    id                TEXT PRIMARY KEY NOT NULL,
    account_id        TEXT NOT NULL REFERENCES accounts (id),
    request_type      TEXT NOT NULL,
    request_number    TEXT NOT NULL,
    number_normalized TEXT NOT NULL,
    scac              TEXT,
    auto_detect_scac  INTEGER NOT NULL,
    ref_numbers       TEXT NOT NULL,
    shipment_tags     TEXT NOT NULL,
    status            TEXT NOT NULL,
    failed_reason     TEXT,
    is_retrying       INTEGER NOT NULL,
    retry_count       INTEGER,
    tracked_object_id TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL
) STRICT;

-- The duplicate rule: one open request per account, normalized number and carrier.
CREATE UNIQUE INDEX tracking_requests_open_unique
    ON tracking_requests (account_id, number_normalized, COALESCE(scac, ''))
    WHERE status IN ('pending', 'awaiting_manifest', 'created');

CREATE INDEX tracking_requests_account_created
    ON tracking_requests (account_id, created_at DESC, id DESC);
