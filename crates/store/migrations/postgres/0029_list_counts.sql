-- The counts the console's lists show beside their choices, kept as the rows are written
-- instead of counted from every row at each page: per account and per combination of what
-- a list is counted by (a container's status, availability, holds; a shipment's line and
-- whether its tracking stopped). Triggers append a delta (+1, -1) in the same transaction
-- as the row, so a count never disagrees with the rows and concurrent writers of one
-- account never wait on one counter row; the deltas are folded into the counts now and
-- then (`lists::fold_counts`, one statement that sums exactly the deltas it deletes). Keys
-- are never null, so that one combination is one row: availability 1 yes, 0 no, 2 unknown;
-- hold names '' when not derived yet.
CREATE TABLE container_counts (
    account_id     uuid NOT NULL,
    current_status text NOT NULL,
    available      integer NOT NULL,
    has_holds      boolean NOT NULL,
    hold_names     text NOT NULL,
    count          bigint NOT NULL,
    PRIMARY KEY (account_id, current_status, available, has_holds, hold_names)
);
CREATE TABLE container_count_deltas (
    account_id     uuid NOT NULL,
    current_status text NOT NULL,
    available      integer NOT NULL,
    has_holds      boolean NOT NULL,
    hold_names     text NOT NULL,
    count          bigint NOT NULL
);
CREATE INDEX container_count_deltas_account ON container_count_deltas (account_id);

CREATE FUNCTION container_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO container_count_deltas VALUES (OLD.account_id, OLD.current_status,
            CASE WHEN OLD.available_for_pickup IS NULL THEN 2
                 WHEN OLD.available_for_pickup THEN 1 ELSE 0 END,
            OLD.has_holds, COALESCE(OLD.hold_names, ''), -1);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO container_count_deltas VALUES (NEW.account_id, NEW.current_status,
            CASE WHEN NEW.available_for_pickup IS NULL THEN 2
                 WHEN NEW.available_for_pickup THEN 1 ELSE 0 END,
            NEW.has_holds, COALESCE(NEW.hold_names, ''), 1);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER containers_counted AFTER INSERT OR DELETE ON containers
    FOR EACH ROW EXECUTE FUNCTION container_counted();
CREATE TRIGGER containers_recounted
    AFTER UPDATE OF account_id, current_status, available_for_pickup, has_holds, hold_names
    ON containers FOR EACH ROW
    WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id
       OR OLD.current_status IS DISTINCT FROM NEW.current_status
       OR OLD.available_for_pickup IS DISTINCT FROM NEW.available_for_pickup
       OR OLD.has_holds IS DISTINCT FROM NEW.has_holds
       OR OLD.hold_names IS DISTINCT FROM NEW.hold_names)
    EXECUTE FUNCTION container_counted();

INSERT INTO container_counts
SELECT account_id, current_status,
       CASE WHEN available_for_pickup IS NULL THEN 2 WHEN available_for_pickup THEN 1 ELSE 0 END,
       has_holds, COALESCE(hold_names, ''), COUNT(*)
  FROM containers
 GROUP BY 1, 2, 3, 4, 5;

CREATE TABLE shipment_counts (
    account_id uuid NOT NULL,
    scac       text NOT NULL,
    stopped    boolean NOT NULL,
    count      bigint NOT NULL,
    PRIMARY KEY (account_id, scac, stopped)
);
CREATE TABLE shipment_count_deltas (
    account_id uuid NOT NULL,
    scac       text NOT NULL,
    stopped    boolean NOT NULL,
    count      bigint NOT NULL
);
CREATE INDEX shipment_count_deltas_account ON shipment_count_deltas (account_id);

CREATE FUNCTION shipment_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO shipment_count_deltas
        VALUES (OLD.account_id, OLD.scac, OLD.stopped_at IS NOT NULL, -1);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO shipment_count_deltas
        VALUES (NEW.account_id, NEW.scac, NEW.stopped_at IS NOT NULL, 1);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER shipments_counted AFTER INSERT OR DELETE ON shipments
    FOR EACH ROW EXECUTE FUNCTION shipment_counted();
CREATE TRIGGER shipments_recounted AFTER UPDATE OF account_id, scac, stopped_at ON shipments
    FOR EACH ROW
    WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.scac IS DISTINCT FROM NEW.scac
       OR (OLD.stopped_at IS NULL) IS DISTINCT FROM (NEW.stopped_at IS NULL))
    EXECUTE FUNCTION shipment_counted();

INSERT INTO shipment_counts
SELECT account_id, scac, stopped_at IS NOT NULL, COUNT(*)
  FROM shipments
 GROUP BY 1, 2, 3;
