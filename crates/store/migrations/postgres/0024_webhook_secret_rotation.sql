-- A webhook's secret can be rotated (POST /v2/webhooks/{id}/rotate_secret): the secret the
-- rotation replaced keeps signing deliveries beside the new one until previous_secret_until.
ALTER TABLE webhooks ADD COLUMN previous_secret text;
ALTER TABLE webhooks ADD COLUMN previous_secret_until timestamptz;
