//! Whether the database's storage is full (SQLite's `SQLITE_FULL`, PostgreSQL's
//! `disk_full`), shared by the store's writes and its readers: writes refused with
//! [`StoreError::StorageFull`](crate::StoreError::StorageFull) are counted and logged at
//! most once a minute with how many. A full disk still takes the odd small write (a page
//! freed and reused), so the storage counts as full until [`RECENT`] has passed without a
//! refusal, not merely until the next commit.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often a full database is logged while it stays full.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// How long after its last refusal the storage still counts as full.
pub(crate) const RECENT: Duration = Duration::from_secs(10);

/// The storage's state, as the writes found it.
#[derive(Debug, Default)]
pub(crate) struct Fullness {
    /// Set by a refusal; cleared by a commit once [`RECENT`] passed without one.
    full: AtomicBool,
    refused: AtomicU64,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    last_refusal: Option<Instant>,
    /// When the state was last logged, and the refusals counted then.
    logged: Option<(Instant, u64)>,
}

impl Fullness {
    /// `count` writes were refused for want of space.
    pub(crate) fn refused(&self, count: u64) {
        self.full.store(true, Ordering::Relaxed);
        let total = self.refused.fetch_add(count, Ordering::Relaxed) + count;
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        state.last_refusal = Some(Instant::now());
        let due = state.logged.is_none_or(|(at, _)| at.elapsed() >= LOG_EVERY);
        if due {
            let since = state.logged.map_or(0, |(_, then)| then);
            tracing::error!(
                refused = total - since,
                "the database's storage is full: writes are refused until space is freed"
            );
            state.logged = Some((Instant::now(), total));
        }
    }

    /// A write committed: once no write was refused for [`RECENT`], there is space again.
    pub(crate) fn committed(&self) {
        if !self.full.load(Ordering::Relaxed) {
            return;
        }
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        if state.last_refusal.is_none_or(|at| at.elapsed() >= RECENT) {
            self.full.store(false, Ordering::Relaxed);
            *state = State::default();
            tracing::info!("the database's storage has space again: writes are accepted");
        }
    }

    /// Whether a write was refused for want of space in the last [`RECENT`].
    pub(crate) fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
            && self
                .state
                .lock()
                .is_ok_and(|state| state.last_refusal.is_some_and(|at| at.elapsed() < RECENT))
    }

    /// Writes refused for want of space since the store was opened.
    pub(crate) fn refusals(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commit_between_refusals_does_not_end_the_full_state() {
        let fullness = Fullness::default();
        assert!(!fullness.is_full());
        fullness.refused(3);
        fullness.committed();
        assert!(fullness.is_full(), "a refusal a moment ago: still full");
        fullness.refused(1);
        assert_eq!(fullness.refusals(), 4);
        // Long after the last refusal, the next commit ends it.
        if let Ok(mut state) = fullness.state.lock() {
            state.last_refusal = Instant::now().checked_sub(RECENT * 2);
        }
        assert!(!fullness.is_full(), "no refusal for a while");
        fullness.committed();
        assert!(!fullness.full.load(Ordering::Relaxed));
    }
}
