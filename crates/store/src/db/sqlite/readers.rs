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

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use tokio::runtime::{Handle, RuntimeFlavor};

use crate::StoreError;

/// Read-only connections to one database file, reused across requests.
#[derive(Debug)]
pub(super) struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    max_idle: usize,
}

impl Readers {
    pub(super) fn new(path: PathBuf, max_idle: usize) -> Self {
        Self {
            path,
            idle: Mutex::new(Vec::new()),
            max_idle: max_idle.max(1),
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
        Ok(connection)
    }

    /// Runs a short read (a lookup by key, a first page) on this thread.
    pub(super) fn point<R>(
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
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if idle.len() < self.max_idle {
            idle.push(connection);
        }
        result
    }

    /// Runs a read that may scan many rows, telling a multi-threaded runtime that this
    /// thread is busy.
    pub(super) fn scan<R>(
        &self,
        read: impl FnOnce(&Connection) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        match Handle::try_current().map(|handle| handle.runtime_flavor()) {
            Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(|| self.point(read)),
            _ => self.point(read),
        }
    }
}
