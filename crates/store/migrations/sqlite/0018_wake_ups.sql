-- Wake-ups across processes are PostgreSQL's (LISTEN/NOTIFY, migration 0018 there): one
-- process serves a SQLite file, and its workers ring each other in memory.
SELECT 1;
