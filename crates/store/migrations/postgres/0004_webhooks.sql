-- Webhook subscriptions, the events each wants (none listed: all), the notifications the
-- outbox fans out to them, and every delivery attempt.

CREATE TABLE webhooks (
    id              uuid PRIMARY KEY,
    account_id      uuid NOT NULL REFERENCES accounts (id),
    url             text NOT NULL,
    active          boolean NOT NULL,
    all_events      boolean NOT NULL,
    secret          text NOT NULL,
    headers         jsonb NOT NULL,
    disabled_reason text,
    failing_since   timestamptz,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);

CREATE INDEX webhooks_account_created ON webhooks (account_id, created_at, id);

CREATE TABLE webhook_events (
    webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event      text NOT NULL,
    position   integer NOT NULL,
    PRIMARY KEY (webhook_id, event)
);

CREATE TABLE webhook_notifications (
    id              uuid PRIMARY KEY,
    account_id      uuid NOT NULL REFERENCES accounts (id),
    webhook_id      uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    domain_event_id uuid NOT NULL REFERENCES domain_events (id),
    event           text NOT NULL,
    delivery_status text NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    due_at          timestamptz,
    lease_until     timestamptz,
    lease_token     uuid,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    UNIQUE (webhook_id, domain_event_id)
);

CREATE INDEX webhook_notifications_account_created
    ON webhook_notifications (account_id, created_at, id);
CREATE INDEX webhook_notifications_due
    ON webhook_notifications (due_at) WHERE delivery_status = 'pending';

CREATE TABLE webhook_attempts (
    id              uuid PRIMARY KEY,
    notification_id uuid NOT NULL REFERENCES webhook_notifications (id) ON DELETE CASCADE,
    attempted_at    timestamptz NOT NULL,
    status_code     integer,
    error           text,
    latency_ms      integer NOT NULL,
    response_body   text
);

CREATE INDEX webhook_attempts_notification ON webhook_attempts (notification_id, attempted_at);
