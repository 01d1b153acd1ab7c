-- The search's one case rule on both backends: only the letters `a` to `z` are upper-cased
-- (store/src/db/mod.rs, `Dialect::upper`). SQLite's `UPPER` does just that; PostgreSQL's
-- follows the database's locale (under `C.UTF-8`, `ï` became `Ï`), so a reference written
-- `Ünïcode` was not found by its own text. `COLLATE "C"` keeps PostgreSQL's to ASCII
-- whatever the locale. The index's text must be upper-cased as the search's check is, or
-- the index would miss a row the check finds: the trigger functions are replaced and the
-- entries that differ are written again.

CREATE OR REPLACE FUNCTION tidemark_tracking_request_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tracking_request_search (id, account_id, text)
        VALUES (NEW.id, NEW.account_id,
                NEW.number_normalized || chr(10) || UPPER(CAST(NEW.ref_numbers AS text) COLLATE "C"))
        ON CONFLICT (id) DO UPDATE SET text = EXCLUDED.text;
    RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION tidemark_shipment_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO shipment_search (id, account_id, text)
        VALUES (NEW.id, NEW.account_id,
                NEW.normalized_number || chr(10) || UPPER(NEW.bill_of_lading_number COLLATE "C") || chr(10)
                    || UPPER(CAST(NEW.ref_numbers AS text) COLLATE "C"))
        ON CONFLICT (id) DO UPDATE SET text = EXCLUDED.text;
    RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION tidemark_container_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO container_search (id, account_id, shipment_id, text)
        VALUES (NEW.id, NEW.account_id, NEW.shipment_id,
                NEW.number || chr(10) || UPPER(CAST(NEW.ref_numbers AS text) COLLATE "C"))
        ON CONFLICT (id) DO UPDATE SET shipment_id = EXCLUDED.shipment_id, text = EXCLUDED.text;
    RETURN NULL;
END;
$$;

UPDATE tracking_request_search AS s
    SET text = r.number_normalized || chr(10) || UPPER(CAST(r.ref_numbers AS text) COLLATE "C")
    FROM tracking_requests AS r
    WHERE r.id = s.id
      AND s.text <> r.number_normalized || chr(10) || UPPER(CAST(r.ref_numbers AS text) COLLATE "C");

UPDATE shipment_search AS s
    SET text = sh.normalized_number || chr(10) || UPPER(sh.bill_of_lading_number COLLATE "C") || chr(10)
               || UPPER(CAST(sh.ref_numbers AS text) COLLATE "C")
    FROM shipments AS sh
    WHERE sh.id = s.id
      AND s.text <> sh.normalized_number || chr(10) || UPPER(sh.bill_of_lading_number COLLATE "C") || chr(10)
                    || UPPER(CAST(sh.ref_numbers AS text) COLLATE "C");

UPDATE container_search AS s
    SET text = c.number || chr(10) || UPPER(CAST(c.ref_numbers AS text) COLLATE "C")
    FROM containers AS c
    WHERE c.id = s.id
      AND s.text <> c.number || chr(10) || UPPER(CAST(c.ref_numbers AS text) COLLATE "C");
