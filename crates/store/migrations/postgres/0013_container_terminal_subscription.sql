-- Until when the container's terminal pushes what changes (a subscription it accepted);
-- null while it is only polled. A terminal's push names containers by number: they are
-- found by it, whatever their account. The index by number then account serves that and
-- an account's search by number alike, so it replaces the one by account then number.
ALTER TABLE containers ADD COLUMN terminal_subscribed_until TIMESTAMPTZ;
DROP INDEX containers_account_number;
CREATE INDEX containers_number_account ON containers (number, account_id);
