-- When a shipment arrives, or arrived, at its port of discharge (the actual arrival, else
-- the estimate), for the reference's arrival-date filter of the shipments list
-- (`filter[arrival_from]`, `filter[arrival_to]`). Written with the route; filled here from
-- the routes already kept (carriers give arrivals to the minute, so whole seconds).
ALTER TABLE shipments ADD COLUMN pod_arrival_at TEXT;

UPDATE shipments SET pod_arrival_at = strftime(
    '%Y-%m-%dT%H:%M:%S.000000Z',
    COALESCE(json_extract(route, '$.pod_ata_at'), json_extract(route, '$.pod_eta_at'))
);

CREATE INDEX shipments_arrival ON shipments (account_id, pod_arrival_at);
