//! Reads on SQLite, run on the calling thread.
//!
//! sqlx gives each SQLite connection its own thread, so every query crosses threads twice
//! (about 30 µs on a busy 2-core machine); for point reads that was most of a request's
//! cost. Reads therefore use read-only rusqlite connections from this small pool, executed
//! where they are asked for. In WAL mode readers never wait for the writer. Lookups and
//! first pages take microseconds to a fraction of a millisecond and run directly; reads
//! that may scan many rows (deep pages, totals that count rows) run inside
//! `block_in_place` on a multi-threaded runtime, so the runtime moves its other tasks away.
//! (Running every list that way cost a third more p99 latency in the benchmark.)
//! Writes go through the one writer (see `writer`).
//!
//! At most `max_connections` reads run at once; the others wait their turn. Unbounded,
//! each concurrent read held a connection of its own (with its page cache) on a thread of
//! its own (`block_in_place` starts one), and the memory they took stayed with the
//! allocator after the load: 64 clients' lists took the process past 500 MB.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use tokio::runtime::{Handle, RuntimeFlavor};
use tokio::sync::Semaphore;

use crate::StoreError;

/// Read-only connections to one database file, reused across requests.
#[derive(Debug)]
pub(super) struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    /// One per connection: at most this many reads at once.
    turns: Semaphore,
    /// Each connection's page cache, in KiB.
    cache_kib: u32,
}

impl Readers {
    pub(super) fn new(path: PathBuf, connections: usize, cache_kib: u32) -> Self {
        Self {
            path,
            idle: Mutex::new(Vec::new()),
            turns: Semaphore::new(connections.max(1)),
            cache_kib,
        }
    }

    /// A new read-only connection to the file.
    pub(super) fn open(&self) -> Result<Connection, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let connection = Connection::open_with_flags(&self.path, flags)?;
        connection.busy_timeout(Duration::from_secs(5))?;
        connection.set_prepared_statement_cache_capacity(64);
        // Negative: a size in KiB rather than in pages.
        connection.execute_batch(&format!("PRAGMA cache_size = -{};", self.cache_kib))?;
        Ok(connection)
    }

    /// Runs a short read (a lookup by key, a first page) on this thread, in its turn.
    pub(super) async fn point<R>(
        &self,
        read: impl FnOnce(&Connection) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        // The semaphore is never closed: a turn is always given.
        let _turn = self.turns.acquire().await.ok();
        self.run(read)
    }

    /// Runs a read that may scan many rows, in its turn, telling a multi-threaded runtime
    /// that this thread is busy.
    pub(super) async fn scan<R>(
        &self,
        read: impl FnOnce(&Connection) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        let _turn = self.turns.acquire().await.ok();
        match Handle::try_current().map(|handle| handle.runtime_flavor()) {
            Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(|| self.run(read)),
            _ => self.run(read),
        }
    }

    /// Runs `read` on an idle connection (or a new one), kept for the next read.
    fn run<R>(
        &self,
        read: impl FnOnce(&Connection) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        let idle = self
            .idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop();
        let connection = match idle {
            Some(connection) => connection,
            None => self.open()?,
        };
        let result = read(&connection);
        self.idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(connection);
        result
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Barrier};

    use super::*;

    /// Eight scans at once, in pairs that wait for each other inside: never more than the
    /// two turns inside together, and no more than two connections opened.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reads_take_turns_and_open_no_more_connections_than_turns() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("readers.db");
        Connection::open(&path)
            .and_then(|c| c.execute_batch("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1);"))
            .expect("a database");
        let readers = Arc::new(Readers::new(path, 2, 256));
        let (inside, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let pair = Arc::new(Barrier::new(2));
        let reads = (0..8).map(|_| {
            let (readers, inside, most, pair) = (
                Arc::clone(&readers),
                Arc::clone(&inside),
                Arc::clone(&most),
                Arc::clone(&pair),
            );
            tokio::spawn(async move {
                readers
                    .scan(|connection| {
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        pair.wait();
                        let n: i64 = connection.query_row("SELECT n FROM t", [], |r| r.get(0))?;
                        inside.fetch_sub(1, Ordering::SeqCst);
                        Ok(n)
                    })
                    .await
            })
        });
        for read in futures::future::join_all(reads).await {
            assert_eq!(read.expect("joined").expect("read"), 1);
        }
        assert_eq!(most.load(Ordering::SeqCst), 2, "two at once, never more");
        let opened = readers.idle.lock().map(|idle| idle.len()).unwrap_or(0);
        assert!(opened <= 2, "{opened} connections opened");
    }
}
