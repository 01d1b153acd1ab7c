-- The jobs held by a worker, by kind and until when: with `jobs_due` (kind, due_at), when
-- the next job of a kind can be claimed is read from two indexes instead of every job of
-- that kind (`next_due`, read by each idle tracker at every poll: 50 ms at 100,000 jobs).
CREATE INDEX jobs_leased ON jobs (kind, lease_until) WHERE lease_until IS NOT NULL;
