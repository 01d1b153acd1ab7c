-- What is known of a container at its terminal of discharge (api.md §4a), read whole, and
-- the three facts the container lists filter on, derived from it by the domain when the
-- container is written: availability as the source says it (null: not known), the last
-- free day that counts, and whether a hold blocks the pickup.
ALTER TABLE containers ADD COLUMN terminal TEXT NOT NULL DEFAULT '{}';
ALTER TABLE containers ADD COLUMN available_for_pickup INTEGER;
ALTER TABLE containers ADD COLUMN pickup_lfd TEXT;
ALTER TABLE containers ADD COLUMN has_holds INTEGER NOT NULL DEFAULT 0;
CREATE INDEX containers_pickup_lfd ON containers (account_id, pickup_lfd) WHERE pickup_lfd IS NOT NULL;
