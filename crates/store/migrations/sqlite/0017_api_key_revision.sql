-- A change counter of API keys: bumped in the transaction that revokes one, read by every
-- API process (each caches the keys it verified) to drop its cache when it moved.
CREATE TABLE api_key_revision (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    revision INTEGER NOT NULL
) STRICT;
INSERT INTO api_key_revision (id, revision) VALUES (1, 0);
