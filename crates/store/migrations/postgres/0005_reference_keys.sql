-- Ports, terminals and vessels are keyed by an id derived from their code. A second unique
-- constraint on the code made concurrent upserts of the same place fail: ON CONFLICT
-- arbitrates on one unique index, and a race on the other raised a unique violation. The
-- id alone keeps the codes unique; the codes keep plain indexes for lookups.
ALTER TABLE ports DROP CONSTRAINT ports_locode_key;
CREATE INDEX ports_locode ON ports (locode);
ALTER TABLE terminals DROP CONSTRAINT terminals_code_key;
CREATE INDEX terminals_code ON terminals (code);
ALTER TABLE vessels DROP CONSTRAINT vessels_imo_key;
CREATE INDEX vessels_imo ON vessels (imo);
