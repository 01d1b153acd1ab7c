-- The counts the console's lists show beside their choices, kept exact by triggers in the
-- same transaction as every write instead of counted from every row at each page: per
-- account and per combination of what a list is counted by (a container's status,
-- availability and holds; a shipment's line and whether its tracking stopped). (SQLite has
-- a single writer, so these rows are never contended.) Keys are never null, so that one
-- combination is one row: availability 1 yes, 0 no, 2 unknown; hold names '' while not
-- derived yet.

CREATE TABLE container_counts (
    account_id     TEXT NOT NULL,
    current_status TEXT NOT NULL,
    available      INTEGER NOT NULL,
    has_holds      INTEGER NOT NULL,
    hold_names     TEXT NOT NULL,
    count          INTEGER NOT NULL,
    PRIMARY KEY (account_id, current_status, available, has_holds, hold_names)
) STRICT, WITHOUT ROWID;

INSERT INTO container_counts
SELECT account_id, current_status, COALESCE(available_for_pickup, 2), has_holds,
       COALESCE(hold_names, ''), COUNT(*)
  FROM containers
 GROUP BY account_id, current_status, COALESCE(available_for_pickup, 2), has_holds,
       COALESCE(hold_names, '');

CREATE TRIGGER container_counts_insert AFTER INSERT ON containers
BEGIN
    INSERT INTO container_counts VALUES (NEW.account_id, NEW.current_status,
        COALESCE(NEW.available_for_pickup, 2), NEW.has_holds, COALESCE(NEW.hold_names, ''), 1)
        ON CONFLICT DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER container_counts_update
AFTER UPDATE OF account_id, current_status, available_for_pickup, has_holds, hold_names ON containers
    WHEN OLD.account_id IS NOT NEW.account_id OR OLD.current_status IS NOT NEW.current_status
      OR OLD.available_for_pickup IS NOT NEW.available_for_pickup
      OR OLD.has_holds IS NOT NEW.has_holds OR OLD.hold_names IS NOT NEW.hold_names
BEGIN
    UPDATE container_counts SET count = count - 1
     WHERE account_id = OLD.account_id AND current_status = OLD.current_status
       AND available = COALESCE(OLD.available_for_pickup, 2) AND has_holds = OLD.has_holds
       AND hold_names = COALESCE(OLD.hold_names, '');
    INSERT INTO container_counts VALUES (NEW.account_id, NEW.current_status,
        COALESCE(NEW.available_for_pickup, 2), NEW.has_holds, COALESCE(NEW.hold_names, ''), 1)
        ON CONFLICT DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER container_counts_delete AFTER DELETE ON containers
BEGIN
    UPDATE container_counts SET count = count - 1
     WHERE account_id = OLD.account_id AND current_status = OLD.current_status
       AND available = COALESCE(OLD.available_for_pickup, 2) AND has_holds = OLD.has_holds
       AND hold_names = COALESCE(OLD.hold_names, '');
END;

CREATE TABLE shipment_counts (
    account_id TEXT NOT NULL,
    scac       TEXT NOT NULL,
    stopped    INTEGER NOT NULL,
    count      INTEGER NOT NULL,
    PRIMARY KEY (account_id, scac, stopped)
) STRICT, WITHOUT ROWID;

INSERT INTO shipment_counts
SELECT account_id, scac, stopped_at IS NOT NULL, COUNT(*)
  FROM shipments
 GROUP BY account_id, scac, stopped_at IS NOT NULL;

CREATE TRIGGER shipment_counts_insert AFTER INSERT ON shipments
BEGIN
    INSERT INTO shipment_counts VALUES (NEW.account_id, NEW.scac, NEW.stopped_at IS NOT NULL, 1)
        ON CONFLICT DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER shipment_counts_update AFTER UPDATE OF account_id, scac, stopped_at ON shipments
    WHEN OLD.account_id IS NOT NEW.account_id OR OLD.scac IS NOT NEW.scac
      OR (OLD.stopped_at IS NULL) IS NOT (NEW.stopped_at IS NULL)
BEGIN
    UPDATE shipment_counts SET count = count - 1
     WHERE account_id = OLD.account_id AND scac = OLD.scac
       AND stopped = (OLD.stopped_at IS NOT NULL);
    INSERT INTO shipment_counts VALUES (NEW.account_id, NEW.scac, NEW.stopped_at IS NOT NULL, 1)
        ON CONFLICT DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER shipment_counts_delete AFTER DELETE ON shipments
BEGIN
    UPDATE shipment_counts SET count = count - 1
     WHERE account_id = OLD.account_id AND scac = OLD.scac
       AND stopped = (OLD.stopped_at IS NOT NULL);
END;
