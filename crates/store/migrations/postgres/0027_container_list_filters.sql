-- Three more facts the container lists filter on, derived by the domain when a container
-- is written: the code of its terminal of discharge, the names of the holds that block its
-- pickup (`|customs|freight|`, `|` for none) and the local date its last free day is at its
-- port of discharge (what "last free day before" compares: the terminal's date, not a UTC
-- cut-off), and the order "soonest last free day first, none last" as one indexed column
-- (the last free day, or the far future). Rows written before are derived once when the
-- store opens (`hold_names` null). The tallies the lists show beside their choices are read
-- from the index that holds their columns, without the rows.
ALTER TABLE containers ADD COLUMN terminal_code TEXT;
ALTER TABLE containers ADD COLUMN hold_names TEXT;
ALTER TABLE containers ADD COLUMN pickup_lfd_day TEXT;
ALTER TABLE containers ADD COLUMN pickup_lfd_order TIMESTAMPTZ;
CREATE INDEX containers_pickup_lfd_day ON containers (account_id, pickup_lfd_day)
 WHERE pickup_lfd_day IS NOT NULL;
CREATE INDEX containers_underived ON containers (id) WHERE hold_names IS NULL;
CREATE INDEX containers_by_lfd ON containers (account_id, pickup_lfd_order, id);
CREATE INDEX containers_tallied ON containers
 (account_id, current_status, available_for_pickup, has_holds, hold_names);
CREATE INDEX shipments_tallied ON shipments (account_id, scac, stopped_at);
