-- What a person calls a key ("CI", "Nick's laptop"), and when it was last used, to the
-- hour (api keys are verified from memory; each process writes a use at most hourly).
ALTER TABLE api_keys ADD COLUMN name TEXT;
ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
