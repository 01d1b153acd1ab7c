-- Tidemark's own arrival estimate at the port of discharge, from the vessel's AIS
-- positions over the sea routes (`pod_predicted_eta_at`): written by the arrival
-- predictions, carried by every other write of the shipment.
ALTER TABLE shipments ADD COLUMN pod_predicted_eta_at timestamptz;

-- The vessel the carrier names into the port of discharge while the shipment is at sea
-- (`Shipment::sailing_vessel`), for the overview's map of the vessels at sea: written
-- with the route; filled here from the routes already kept.
ALTER TABLE shipments ADD COLUMN sailing_vessel_imo text;

UPDATE shipments SET sailing_vessel_imo = route -> 'pod_vessel' ->> 'imo'
WHERE stopped_at IS NULL
  AND route ->> 'pol_atd_at' IS NOT NULL
  AND route ->> 'pod_ata_at' IS NULL;

CREATE INDEX shipments_sailing ON shipments (account_id, sailing_vessel_imo)
WHERE sailing_vessel_imo IS NOT NULL;
