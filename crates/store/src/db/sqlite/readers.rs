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
