-- The records a domain event concerns, frozen as JSON:API resources when it is recorded:
-- the `included` member of its webhook notifications.
ALTER TABLE domain_events ADD COLUMN included TEXT NOT NULL DEFAULT '[]';
