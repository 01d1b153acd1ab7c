-- When a shipment arrives, or arrived, at its port of discharge (the actual arrival, else
-- the estimate), for the reference's arrival-date filter of the shipments list
-- (`filter[arrival_from]`, `filter[arrival_to]`). Written with the route; filled here from
-- the routes already kept.
ALTER TABLE shipments ADD COLUMN pod_arrival_at timestamptz;

UPDATE shipments SET pod_arrival_at =
    COALESCE(route ->> 'pod_ata_at', route ->> 'pod_eta_at')::timestamptz;

CREATE INDEX shipments_arrival ON shipments (account_id, pod_arrival_at);
