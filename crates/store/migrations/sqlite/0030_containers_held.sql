-- The boxes on hold, newest first: a containers list filtered on a hold (a few in a
-- hundred boxes) reads its page from here instead of walking every box of the account in
-- order until it has found a page of held ones (25 ms at 100,000 boxes).
CREATE INDEX containers_held ON containers (account_id, has_holds, created_at DESC, id DESC);
