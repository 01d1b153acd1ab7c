//! A read transaction held open while the writer is idle, so that point reads skip two
//! system calls each.
//!
//! In WAL mode every read transaction takes a shared lock on one of the WAL's read slots
//! and releases it at its end. SQLite counts those locks per process and asks the kernel
//! (`fcntl`, under a mutex every reader of the file shares) only for the first taker and
//! the last leaver of a slot. When this connection holds a read transaction on the latest
//! snapshot, every reader of this process takes the same slot after it and neither asks:
//! the lock and unlock calls and the waits on that mutex were about a third of a point
//! read's cost (`bench/run.sh`, `GET /v2/tracking_requests/{id}`).
//!
//! The writer takes it when it has been idle a moment and releases it before its next
//! batch, so it never keeps this process's checkpoints from completing or its WAL from
//! starting over. While another connection writes (another process, another store on the
//! same file), it is let go within [`Anchor::tend`]'s period and not taken again until the
//! other has been quiet for one: held, it would keep the other's checkpoints short of
//! its snapshot. It changes what nobody reads: each reader still begins its own
//! transaction on the latest commit. Only in WAL mode, where readers never block the
//! writer; anything that goes wrong leaves it released, costing only speed.

use rusqlite::Connection;

/// The held read transaction, on a read-only connection of its own.
pub(super) struct Anchor {
    connection: Connection,
    /// The writer connection's `data_version` when last looked at: it moves only when
    /// another connection commits.
    others: Option<i64>,
}

impl Anchor {
    /// An anchor on `connection`, when the database is in WAL mode.
    pub(super) fn new(connection: Connection) -> Option<Self> {
        let mode: String = connection
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))
            .ok()?;
        mode.eq_ignore_ascii_case("wal").then_some(Self {
            connection,
            others: None,
        })
    }

    /// Called while the writer is idle, now and then: holds the read transaction if no
    /// other connection committed since the last call, lets it go otherwise.
    ///
    /// # Errors
    /// When a held transaction could not be ended (see [`Anchor::release`]).
    pub(super) fn tend(&mut self, writer: &Connection) -> Result<(), rusqlite::Error> {
        let seen = writer
            .query_row("PRAGMA data_version", [], |row| row.get::<_, i64>(0))
            .ok();
        let quiet = seen.is_some() && seen == self.others;
        self.others = seen;
        if quiet {
            self.hold();
            Ok(())
        } else {
            self.release()
        }
    }

    /// Begins the read transaction on the latest commit, unless it is held.
    fn hold(&mut self) {
        if self.is_held() {
            return;
        }
        let begun = self.connection.execute_batch("BEGIN").and_then(|()| {
            self.connection
                .query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
        });
        if let Err(error) = begun {
            tracing::debug!(%error, "the read anchor was not taken");
            let _ = self.release();
        }
    }

    /// Ends the read transaction, if one is open.
    ///
    /// # Errors
    /// When it could not be ended; the caller then drops the anchor, whose connection's
    /// closing ends it.
    pub(super) fn release(&mut self) -> Result<(), rusqlite::Error> {
        if !self.is_held() {
            return Ok(());
        }
        self.connection.execute_batch("ROLLBACK")
    }

    /// Whether the read transaction is open.
    fn is_held(&self) -> bool {
        !self.connection.is_autocommit()
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::OpenFlags;

    use super::*;

    fn open(path: &std::path::Path, flags: OpenFlags) -> Connection {
        Connection::open_with_flags(path, flags).expect("the database opens")
    }

    /// A database in `mode` with a table of numbers, and its writer.
    fn database(dir: &tempfile::TempDir, mode: &str) -> (std::path::PathBuf, Connection) {
        let path = dir.path().join("anchor.db");
        let writer = open(&path, OpenFlags::default());
        // A checkpoint that cannot complete says so at once.
        writer
            .busy_timeout(std::time::Duration::ZERO)
            .expect("no wait");
        writer
            .execute_batch(&format!(
                "PRAGMA journal_mode = {mode}; CREATE TABLE numbers (n INTEGER)"
            ))
            .expect("the schema");
        (path, writer)
    }

    /// A database in WAL mode, its writer and an anchor on it.
    fn anchored(dir: &tempfile::TempDir) -> (std::path::PathBuf, Connection, Anchor) {
        let (path, writer) = database(dir, "WAL");
        let anchor = Anchor::new(open(&path, OpenFlags::SQLITE_OPEN_READ_ONLY)).expect("WAL mode");
        (path, writer, anchor)
    }

    fn count(connection: &Connection) -> i64 {
        connection
            .query_row("SELECT count(*) FROM numbers", [], |row| row.get(0))
            .expect("a count")
    }

    fn checkpoint_is_blocked(writer: &Connection) -> bool {
        writer
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| {
                row.get::<_, i64>(0)
            })
            .expect("a checkpoint")
            == 1
    }

    #[test]
    fn readers_see_commits_made_while_it_is_held() {
        let dir = tempfile::tempdir().expect("a directory");
        let (path, writer, mut anchor) = anchored(&dir);
        anchor.hold();
        assert!(anchor.is_held());
        writer
            .execute("INSERT INTO numbers VALUES (1)", [])
            .expect("a write while it is held");
        let reader = open(&path, OpenFlags::SQLITE_OPEN_READ_ONLY);
        assert_eq!(count(&reader), 1, "a reader sees the latest commit");
        assert!(anchor.is_held());
    }

    #[test]
    fn released_it_lets_the_wal_start_over() {
        let dir = tempfile::tempdir().expect("a directory");
        let (_, writer, mut anchor) = anchored(&dir);
        anchor.hold();
        writer
            .execute("INSERT INTO numbers VALUES (1)", [])
            .expect("a write");
        // Why the writer releases it before each batch: held on an older snapshot, it
        // keeps the WAL from being emptied.
        assert!(checkpoint_is_blocked(&writer));
        anchor.release().expect("released");
        assert!(!anchor.is_held());
        assert!(!checkpoint_is_blocked(&writer));
        anchor.hold();
        assert!(anchor.is_held(), "taken again on the latest snapshot");
        assert!(!checkpoint_is_blocked(&writer));
    }

    #[test]
    fn it_is_let_go_while_another_connection_writes() {
        let dir = tempfile::tempdir().expect("a directory");
        let (path, writer, mut anchor) = anchored(&dir);
        let other = open(&path, OpenFlags::default());
        anchor.tend(&writer).expect("tended");
        assert!(!anchor.is_held(), "not before one quiet period");
        anchor.tend(&writer).expect("tended");
        assert!(anchor.is_held(), "nobody else wrote");
        writer
            .execute("INSERT INTO numbers VALUES (1)", [])
            .expect("the writer's own write");
        anchor.tend(&writer).expect("tended");
        assert!(anchor.is_held(), "the writer's own commits do not count");
        other
            .execute("INSERT INTO numbers VALUES (2)", [])
            .expect("another connection's write");
        anchor.tend(&writer).expect("tended");
        assert!(!anchor.is_held(), "let go while another connection writes");
        anchor.tend(&writer).expect("tended");
        assert!(anchor.is_held(), "taken again once the other was quiet");
    }

    #[test]
    fn a_database_outside_wal_mode_gets_none() {
        let dir = tempfile::tempdir().expect("a directory");
        let (path, _writer) = database(&dir, "DELETE");
        assert!(Anchor::new(open(&path, OpenFlags::SQLITE_OPEN_READ_ONLY)).is_none());
    }
}
