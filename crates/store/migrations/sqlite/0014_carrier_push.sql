-- A carrier's push for a shipment (DCSA 2.2 event subscriptions): the carrier's
-- subscription id and the shared secret it signs callbacks with, set while one is live. A
-- callback names the subscription: it is found by carrier and id. Events pushed are kept
-- by id (with their creation time), so a replay or an older copy is heard once.
ALTER TABLE shipments ADD COLUMN carrier_subscription_id TEXT;
ALTER TABLE shipments ADD COLUMN carrier_push_secret TEXT;
ALTER TABLE shipments ADD COLUMN carrier_secret_set_at TEXT;
CREATE UNIQUE INDEX shipments_carrier_subscription
    ON shipments (scac, carrier_subscription_id) WHERE carrier_subscription_id IS NOT NULL;
CREATE TABLE carrier_pushed_events (
    shipment_id      TEXT NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
    event_id         TEXT NOT NULL,
    event_created_at TEXT NOT NULL,
    PRIMARY KEY (shipment_id, event_id)
) STRICT;
