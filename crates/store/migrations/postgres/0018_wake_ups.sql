-- Wake-ups across processes: a notification due (new, or due again) or a job scheduled
-- (new, or moved) is announced on a channel at commit, so a dispatcher or tracker in
-- another process wakes at once instead of at its next poll (store/src/wake_ups.rs
-- listens). One announcement per statement; PostgreSQL folds equal ones of a transaction.
CREATE FUNCTION tidemark_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_ARGV[0], '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER webhook_notifications_due
    AFTER INSERT OR UPDATE OF due_at ON webhook_notifications
    FOR EACH STATEMENT EXECUTE FUNCTION tidemark_announce('tidemark_notifications');

CREATE TRIGGER jobs_due
    AFTER INSERT OR UPDATE OF due_at ON jobs
    FOR EACH STATEMENT EXECUTE FUNCTION tidemark_announce('tidemark_jobs');
