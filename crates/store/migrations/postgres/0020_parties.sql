-- Parties: an account's customers (the reference API's `party`), which a tracking request
-- names as its `customer`; its shipment and containers are found by them.
CREATE TABLE parties (
    id           uuid PRIMARY KEY,
    account_id   uuid NOT NULL REFERENCES accounts (id),
    company_name text NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);

CREATE INDEX parties_account_created ON parties (account_id, created_at DESC, id DESC);

ALTER TABLE tracking_requests ADD COLUMN customer_id uuid REFERENCES parties (id);

CREATE INDEX tracking_requests_customer ON tracking_requests (customer_id)
    WHERE customer_id IS NOT NULL;
