-- Idempotency keys (api.md: `Idempotency-Key` on every POST): the first answer to an
-- account's key, replayed to a retry with the same request (its fingerprint: method, path,
-- query and body hashed) until `expires_at`. While `status` is null the first request is
-- still being answered; a claim whose `locked_until` passed (its process died) may be
-- taken over.
CREATE TABLE idempotency_keys (
    account_id   uuid NOT NULL,
    key          text NOT NULL,
    fingerprint  text NOT NULL,
    status       integer,
    content_type text,
    location     text,
    body         bytea NOT NULL,
    locked_until timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
