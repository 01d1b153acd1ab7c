-- Idempotency keys (api.md: `Idempotency-Key` on every POST): the first answer to an
-- account's key, replayed to a retry with the same request (its fingerprint: method, path,
-- query and body hashed) until `expires_at`. While `status` is null the first request is
-- still being answered; a claim whose `locked_until` passed (its process died) may be
-- taken over.
CREATE TABLE idempotency_keys (
    account_id   TEXT NOT NULL,
    key          TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    status       INTEGER,
    content_type TEXT,
    location     TEXT,
    body         BLOB NOT NULL,
    locked_until TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    PRIMARY KEY (account_id, key)
) STRICT;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
