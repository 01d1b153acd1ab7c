-- Three more facts the container lists filter on, derived by the domain when a container
-- is written: the code of its terminal of discharge, the names of the holds that block its
-- pickup (`|customs|freight|`, `|` for none) and the local date its last free day is at its
-- port of discharge (what "last free day before" compares: the terminal's date, not a UTC
-- cut-off). Rows written before are derived once when the store opens (`hold_names` null).
ALTER TABLE containers ADD COLUMN terminal_code TEXT;
ALTER TABLE containers ADD COLUMN hold_names TEXT;
ALTER TABLE containers ADD COLUMN pickup_lfd_day TEXT;
CREATE INDEX containers_pickup_lfd_day ON containers (account_id, pickup_lfd_day)
 WHERE pickup_lfd_day IS NOT NULL;
CREATE INDEX containers_underived ON containers (id) WHERE hold_names IS NULL;
