-- Claiming deliveries: the due index also carries what a claim filters on, so the oldest
-- due are found without reading the rows; the notifications a dispatcher holds, per
-- webhook, are counted to keep each webhook under its limit of deliveries in flight
-- (settled and released notifications have no lease, so that index holds only what is in
-- flight); and a claim reads back what it took by its lease token.
DROP INDEX webhook_notifications_due;
CREATE INDEX webhook_notifications_due
    ON webhook_notifications (due_at, id, webhook_id, lease_until) WHERE delivery_status = 'pending';
CREATE INDEX webhook_notifications_leased
    ON webhook_notifications (webhook_id, lease_until) WHERE lease_until IS NOT NULL;
CREATE INDEX webhook_notifications_lease_token
    ON webhook_notifications (lease_token) WHERE lease_token IS NOT NULL;
