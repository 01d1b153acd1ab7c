-- Each webhook's pending notifications in due order, for the claim that takes each
-- webhook's oldest up to its limit: a webhook at its limit costs a few rows read, however
-- deep its backlog (a receiver down for a day leaves hundreds of thousands).
CREATE INDEX webhook_notifications_webhook_due
    ON webhook_notifications (webhook_id, due_at, id, lease_until)
    WHERE delivery_status = 'pending';
