-- Per-account, per-status counts of tracking requests, kept exact by triggers in the same
-- transaction as every write, so a list's meta.total costs a lookup instead of a scan.
-- (SQLite has a single writer, so these rows are never contended.)

CREATE TABLE tracking_request_counts (
    account_id TEXT NOT NULL,
    status     TEXT NOT NULL,
    count      INTEGER NOT NULL,
    PRIMARY KEY (account_id, status)
) STRICT, WITHOUT ROWID;

INSERT INTO tracking_request_counts (account_id, status, count)
    SELECT account_id, status, COUNT(*) FROM tracking_requests GROUP BY account_id, status;

CREATE TRIGGER tracking_request_counts_insert AFTER INSERT ON tracking_requests
BEGIN
    INSERT INTO tracking_request_counts (account_id, status, count) VALUES (NEW.account_id, NEW.status, 1)
        ON CONFLICT (account_id, status) DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER tracking_request_counts_status AFTER UPDATE OF status ON tracking_requests
    WHEN OLD.status <> NEW.status
BEGIN
    UPDATE tracking_request_counts SET count = count - 1
        WHERE account_id = OLD.account_id AND status = OLD.status;
    INSERT INTO tracking_request_counts (account_id, status, count) VALUES (NEW.account_id, NEW.status, 1)
        ON CONFLICT (account_id, status) DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER tracking_request_counts_delete AFTER DELETE ON tracking_requests
BEGIN
    UPDATE tracking_request_counts SET count = count - 1
        WHERE account_id = OLD.account_id AND status = OLD.status;
END;
