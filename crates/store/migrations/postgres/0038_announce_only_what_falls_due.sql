-- A notification is announced when it falls due: new, or pending with a new due time (a
-- retry, a release, a redelivery). A settlement that ends it (delivered, failed) wrote
-- due_at too and so announced on every commit, waking every dispatcher to claim for
-- nothing, and each announcement takes PostgreSQL's queue lock at commit.
DROP TRIGGER webhook_notifications_due ON webhook_notifications;
CREATE TRIGGER webhook_notifications_new
    AFTER INSERT ON webhook_notifications
    FOR EACH STATEMENT EXECUTE FUNCTION tidemark_announce('tidemark_notifications');
CREATE TRIGGER webhook_notifications_due_again
    AFTER UPDATE OF due_at ON webhook_notifications
    FOR EACH ROW
    WHEN (NEW.delivery_status = 'pending' AND NEW.due_at IS DISTINCT FROM OLD.due_at)
    EXECUTE FUNCTION tidemark_announce('tidemark_notifications');
