-- Until when the container's terminal pushes what changes (a subscription it accepted);
-- null while it is only polled. A terminal's push names containers by number: they are
-- found by it, whatever their account.
ALTER TABLE containers ADD COLUMN terminal_subscribed_until TEXT;
CREATE INDEX containers_number ON containers (number);
