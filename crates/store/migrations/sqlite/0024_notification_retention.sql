-- Settled notifications are forgotten, with their attempts, once they have not changed for
-- the retention ([webhooks] retention): the oldest first, found through this index.
CREATE INDEX webhook_notifications_settled
    ON webhook_notifications (updated_at, id) WHERE delivery_status <> 'pending';
