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
//! The writer releases it before each batch and takes it again after the commit: held
//! only while this process does not write, it never keeps a checkpoint from completing
//! or the WAL from starting over. It changes what nobody reads: each reader still begins
//! its own transaction on the latest commit. Only in WAL mode, where readers never block
//! the writer; anything that goes wrong leaves it released, costing only speed.

use rusqlite::Connection;

/// The held read transaction, on a read-only connection of its own.
pub(super) struct Anchor {
    connection: Connection,
    held: bool,
}

impl Anchor {
    /// An anchor on `connection`, when the database is in WAL mode.
    pub(super) fn new(connection: Connection) -> Option<Self> {
        let mode: String = connection
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))
            .ok()?;
        mode.eq_ignore_ascii_case("wal").then_some(Self {
            connection,
            held: false,
        })
    }

    /// Begins the read transaction on the latest commit, unless it is held.
    pub(super) fn hold(&mut self) {
        if self.held {
            return;
        }
        let begun = self.connection.execute_batch("BEGIN").and_then(|()| {
            self.connection
                .query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
        });
        match begun {
            Ok(()) => self.held = true,
            Err(error) => {
                tracing::debug!(%error, "the read anchor was not taken");
                let _ = self.release();
            }
        }
    }

    /// Ends the read transaction, if one is open.
    ///
    /// # Errors
    /// When it could not be ended; the caller then drops the anchor, whose connection's
    /// closing ends it.
    pub(super) fn release(&mut self) -> Result<(), rusqlite::Error> {
        self.held = false;
        if self.connection.is_autocommit() {
            return Ok(());
        }
        self.connection.execute_batch("ROLLBACK")
    }

    /// Whether the read transaction is open.
    #[cfg(test)]
    pub(super) fn is_held(&self) -> bool {
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
        let (path, writer) = database(&dir, "WAL");
        let mut anchor =
            Anchor::new(open(&path, OpenFlags::SQLITE_OPEN_READ_ONLY)).expect("WAL mode");
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
        let (path, writer) = database(&dir, "WAL");
        let mut anchor =
            Anchor::new(open(&path, OpenFlags::SQLITE_OPEN_READ_ONLY)).expect("WAL mode");
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
    fn a_database_outside_wal_mode_gets_none() {
        let dir = tempfile::tempdir().expect("a directory");
        let (path, _writer) = database(&dir, "DELETE");
        assert!(Anchor::new(open(&path, OpenFlags::SQLITE_OPEN_READ_ONLY)).is_none());
    }
}
