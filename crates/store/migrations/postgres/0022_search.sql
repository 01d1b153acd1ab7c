-- Free-text search (`q`, `GET /v2/search`) from a trigram index instead of a scan of the
-- account: each searched row's text in a table with a `pg_trgm` GIN index, which answers
-- `LIKE '%…%'` (store/src/search.rs reads them). The text is what the search's patterns are
-- matched against, one line each: the number, the bill and the upper-cased JSON of the
-- reference numbers (a container's: its number and references). `pg_trgm` ships with
-- PostgreSQL and is a trusted extension: the database's owner may create it.
--
-- Kept by triggers in the transaction of every write, one entry a row.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE tracking_request_search (
    id         uuid PRIMARY KEY,
    account_id uuid NOT NULL,
    text       text NOT NULL
);
CREATE INDEX tracking_request_search_text ON tracking_request_search USING gin (text gin_trgm_ops);

CREATE TABLE shipment_search (
    id         uuid PRIMARY KEY,
    account_id uuid NOT NULL,
    text       text NOT NULL
);
CREATE INDEX shipment_search_text ON shipment_search USING gin (text gin_trgm_ops);

-- A container's entry also names its shipment, which a search of shipments finds by it.
CREATE TABLE container_search (
    id          uuid PRIMARY KEY,
    account_id  uuid NOT NULL,
    shipment_id uuid NOT NULL,
    text        text NOT NULL
);
CREATE INDEX container_search_text ON container_search USING gin (text gin_trgm_ops);

CREATE FUNCTION tidemark_tracking_request_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tracking_request_search (id, account_id, text)
        VALUES (NEW.id, NEW.account_id, NEW.number_normalized || chr(10) || UPPER(CAST(NEW.ref_numbers AS text)))
        ON CONFLICT (id) DO UPDATE SET text = EXCLUDED.text;
    RETURN NULL;
END;
$$;

CREATE FUNCTION tidemark_shipment_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO shipment_search (id, account_id, text)
        VALUES (NEW.id, NEW.account_id,
                NEW.normalized_number || chr(10) || UPPER(NEW.bill_of_lading_number) || chr(10)
                    || UPPER(CAST(NEW.ref_numbers AS text)))
        ON CONFLICT (id) DO UPDATE SET text = EXCLUDED.text;
    RETURN NULL;
END;
$$;

CREATE FUNCTION tidemark_container_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO container_search (id, account_id, shipment_id, text)
        VALUES (NEW.id, NEW.account_id, NEW.shipment_id, NEW.number || chr(10) || UPPER(CAST(NEW.ref_numbers AS text)))
        ON CONFLICT (id) DO UPDATE SET shipment_id = EXCLUDED.shipment_id, text = EXCLUDED.text;
    RETURN NULL;
END;
$$;

INSERT INTO tracking_request_search (id, account_id, text)
    SELECT id, account_id, number_normalized || chr(10) || UPPER(CAST(ref_numbers AS text))
        FROM tracking_requests;

INSERT INTO shipment_search (id, account_id, text)
    SELECT id, account_id,
           normalized_number || chr(10) || UPPER(bill_of_lading_number) || chr(10) || UPPER(CAST(ref_numbers AS text))
        FROM shipments;

INSERT INTO container_search (id, account_id, shipment_id, text)
    SELECT id, account_id, shipment_id, number || chr(10) || UPPER(CAST(ref_numbers AS text)) FROM containers;

CREATE TRIGGER tracking_request_search_insert AFTER INSERT ON tracking_requests
    FOR EACH ROW EXECUTE FUNCTION tidemark_tracking_request_search();
CREATE TRIGGER tracking_request_search_update AFTER UPDATE OF number_normalized, ref_numbers ON tracking_requests
    FOR EACH ROW
    WHEN (OLD.number_normalized IS DISTINCT FROM NEW.number_normalized OR OLD.ref_numbers IS DISTINCT FROM NEW.ref_numbers)
    EXECUTE FUNCTION tidemark_tracking_request_search();

CREATE TRIGGER shipment_search_insert AFTER INSERT ON shipments
    FOR EACH ROW EXECUTE FUNCTION tidemark_shipment_search();
CREATE TRIGGER shipment_search_update
    AFTER UPDATE OF normalized_number, bill_of_lading_number, ref_numbers ON shipments
    FOR EACH ROW
    WHEN (OLD.normalized_number IS DISTINCT FROM NEW.normalized_number
          OR OLD.bill_of_lading_number IS DISTINCT FROM NEW.bill_of_lading_number
          OR OLD.ref_numbers IS DISTINCT FROM NEW.ref_numbers)
    EXECUTE FUNCTION tidemark_shipment_search();

CREATE TRIGGER container_search_insert AFTER INSERT ON containers
    FOR EACH ROW EXECUTE FUNCTION tidemark_container_search();
CREATE TRIGGER container_search_update AFTER UPDATE OF number, ref_numbers, shipment_id ON containers
    FOR EACH ROW
    WHEN (OLD.number IS DISTINCT FROM NEW.number OR OLD.ref_numbers IS DISTINCT FROM NEW.ref_numbers
          OR OLD.shipment_id IS DISTINCT FROM NEW.shipment_id)
    EXECUTE FUNCTION tidemark_container_search();
