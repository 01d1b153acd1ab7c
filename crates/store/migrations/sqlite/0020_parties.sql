-- Parties: an account's customers (the reference API's `party`), which a tracking request
-- names as its `customer`; its shipment and containers are found by them.
CREATE TABLE parties (
    id           TEXT PRIMARY KEY NOT NULL,
    account_id   TEXT NOT NULL REFERENCES accounts (id),
    company_name TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
) STRICT;

CREATE INDEX parties_account_created ON parties (account_id, created_at DESC, id DESC);

ALTER TABLE tracking_requests ADD COLUMN customer_id TEXT REFERENCES parties (id);

CREATE INDEX tracking_requests_customer ON tracking_requests (customer_id)
    WHERE customer_id IS NOT NULL;
