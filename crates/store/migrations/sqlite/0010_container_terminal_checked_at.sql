-- When a terminal last answered for the container (api.md §4a); null until one has.
ALTER TABLE containers ADD COLUMN terminal_checked_at TEXT;
