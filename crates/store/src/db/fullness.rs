//! Whether the database's storage is full (SQLite's `SQLITE_FULL`, PostgreSQL's
//! `disk_full`), shared by the store's writes and its readers: writes refused with
//! [`StoreError::StorageFull`](crate::StoreError::StorageFull), counted, logged at most
//! once a minute with how many, and the state cleared by the next write that commits.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often a full database is logged while it stays full.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// The storage's state, as the writes found it.
#[derive(Debug, Default)]
pub(crate) struct Fullness {
    full: AtomicBool,
    refused: AtomicU64,
    logged: Mutex<Option<(Instant, u64)>>,
}

impl Fullness {
    /// `count` writes were refused for want of space.
    pub(crate) fn refused(&self, count: u64) {
        self.full.store(true, Ordering::Relaxed);
        let total = self.refused.fetch_add(count, Ordering::Relaxed) + count;
        let Ok(mut logged) = self.logged.lock() else {
            return;
        };
        let due = logged.is_none_or(|(at, _)| at.elapsed() >= LOG_EVERY);
        if due {
            let since = logged.map_or(0, |(_, then)| then);
            tracing::error!(
                refused = total - since,
                "the database's storage is full: writes are refused until space is freed"
            );
            *logged = Some((Instant::now(), total));
        }
    }

    /// A write committed: there is space again.
    pub(crate) fn committed(&self) {
        if self.full.swap(false, Ordering::Relaxed) {
            tracing::info!("the database's storage has space again: writes are accepted");
            if let Ok(mut logged) = self.logged.lock() {
                *logged = None;
            }
        }
    }

    /// Whether the last write was refused for want of space.
    pub(crate) fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// Writes refused for want of space since the store was opened.
    pub(crate) fn refusals(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }
}
