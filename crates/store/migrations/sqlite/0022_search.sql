-- Free-text search (`q`, `GET /v2/search`) from a trigram index instead of a scan of the
-- account: each searched row's text in an FTS5 table of SQLite's trigram tokenizer, which
-- answers `LIKE '%…%'` from its index (store/src/search.rs reads them). The text is what
-- the search's patterns are matched against, one line each: the number, the bill and the
-- upper-cased JSON of the reference numbers (a container's: its number and references).
--
-- Kept by triggers in the transaction of every write. A row whose searched text changes
-- gets a new entry and the old one stays: an entry only names a candidate, and each
-- candidate is checked against the row itself, so an old entry can only cost a check.
-- (FTS5 finds an entry by its own rowid, which a VACUUM may renumber in the table the entry
-- is of; so entries name rows by id and are never deleted through a rowid.)

CREATE VIRTUAL TABLE tracking_request_search USING fts5 (
    id UNINDEXED, account_id UNINDEXED, text, tokenize = 'trigram'
);

INSERT INTO tracking_request_search (id, account_id, text)
    SELECT id, account_id, number_normalized || char(10) || UPPER(ref_numbers) FROM tracking_requests;

CREATE TRIGGER tracking_request_search_insert AFTER INSERT ON tracking_requests
BEGIN
    INSERT INTO tracking_request_search (id, account_id, text)
        VALUES (NEW.id, NEW.account_id, NEW.number_normalized || char(10) || UPPER(NEW.ref_numbers));
END;

CREATE TRIGGER tracking_request_search_update AFTER UPDATE OF number_normalized, ref_numbers ON tracking_requests
    WHEN OLD.number_normalized IS NOT NEW.number_normalized OR OLD.ref_numbers IS NOT NEW.ref_numbers
BEGIN
    INSERT INTO tracking_request_search (id, account_id, text)
        VALUES (NEW.id, NEW.account_id, NEW.number_normalized || char(10) || UPPER(NEW.ref_numbers));
END;

CREATE VIRTUAL TABLE shipment_search USING fts5 (
    id UNINDEXED, account_id UNINDEXED, text, tokenize = 'trigram'
);

INSERT INTO shipment_search (id, account_id, text)
    SELECT id, account_id,
           normalized_number || char(10) || UPPER(bill_of_lading_number) || char(10) || UPPER(ref_numbers)
        FROM shipments;

CREATE TRIGGER shipment_search_insert AFTER INSERT ON shipments
BEGIN
    INSERT INTO shipment_search (id, account_id, text)
        VALUES (NEW.id, NEW.account_id,
                NEW.normalized_number || char(10) || UPPER(NEW.bill_of_lading_number) || char(10) || UPPER(NEW.ref_numbers));
END;

CREATE TRIGGER shipment_search_update
    AFTER UPDATE OF normalized_number, bill_of_lading_number, ref_numbers ON shipments
    WHEN OLD.normalized_number IS NOT NEW.normalized_number
      OR OLD.bill_of_lading_number IS NOT NEW.bill_of_lading_number
      OR OLD.ref_numbers IS NOT NEW.ref_numbers
BEGIN
    INSERT INTO shipment_search (id, account_id, text)
        VALUES (NEW.id, NEW.account_id,
                NEW.normalized_number || char(10) || UPPER(NEW.bill_of_lading_number) || char(10) || UPPER(NEW.ref_numbers));
END;

-- A container's entry also names its shipment, which a search of shipments finds by it.
CREATE VIRTUAL TABLE container_search USING fts5 (
    id UNINDEXED, account_id UNINDEXED, shipment_id UNINDEXED, text, tokenize = 'trigram'
);

INSERT INTO container_search (id, account_id, shipment_id, text)
    SELECT id, account_id, shipment_id, number || char(10) || UPPER(ref_numbers) FROM containers;

CREATE TRIGGER container_search_insert AFTER INSERT ON containers
BEGIN
    INSERT INTO container_search (id, account_id, shipment_id, text)
        VALUES (NEW.id, NEW.account_id, NEW.shipment_id, NEW.number || char(10) || UPPER(NEW.ref_numbers));
END;

CREATE TRIGGER container_search_update AFTER UPDATE OF number, ref_numbers, shipment_id ON containers
    WHEN OLD.number IS NOT NEW.number OR OLD.ref_numbers IS NOT NEW.ref_numbers
      OR OLD.shipment_id IS NOT NEW.shipment_id
BEGIN
    INSERT INTO container_search (id, account_id, shipment_id, text)
        VALUES (NEW.id, NEW.account_id, NEW.shipment_id, NEW.number || char(10) || UPPER(NEW.ref_numbers));
END;
