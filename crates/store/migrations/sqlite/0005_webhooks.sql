-- Webhook subscriptions, the events each wants (none listed: all), the notifications the
-- outbox fans out to them, and every delivery attempt.

CREATE TABLE webhooks (
    id              TEXT PRIMARY KEY NOT NULL,
    account_id      TEXT NOT NULL REFERENCES accounts (id),
    url             TEXT NOT NULL,
    active          INTEGER NOT NULL,
    all_events      INTEGER NOT NULL,
    secret          TEXT NOT NULL,
    headers         TEXT NOT NULL,
    disabled_reason TEXT,
    failing_since   TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
) STRICT;

CREATE INDEX webhooks_account_created ON webhooks (account_id, created_at, id);

CREATE TABLE webhook_events (
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event      TEXT NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (webhook_id, event)
) STRICT;

CREATE TABLE webhook_notifications (
    id              TEXT PRIMARY KEY NOT NULL,
    account_id      TEXT NOT NULL REFERENCES accounts (id),
    webhook_id      TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    domain_event_id TEXT NOT NULL REFERENCES domain_events (id),
    event           TEXT NOT NULL,
    delivery_status TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    due_at          TEXT,
    lease_until     TEXT,
    lease_token     TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    UNIQUE (webhook_id, domain_event_id)
) STRICT;

CREATE INDEX webhook_notifications_account_created
    ON webhook_notifications (account_id, created_at, id);
CREATE INDEX webhook_notifications_due
    ON webhook_notifications (due_at) WHERE delivery_status = 'pending';

CREATE TABLE webhook_attempts (
    id              TEXT PRIMARY KEY NOT NULL,
    notification_id TEXT NOT NULL REFERENCES webhook_notifications (id) ON DELETE CASCADE,
    attempted_at    TEXT NOT NULL,
    status_code     INTEGER,
    error           TEXT,
    latency_ms      INTEGER NOT NULL,
    response_body   TEXT
) STRICT;

CREATE INDEX webhook_attempts_notification ON webhook_attempts (notification_id, attempted_at);
