//! The lists' kept counts: every few seconds the tracker folds their pending changes into
//! them (`ListStore::fold_counts`; on PostgreSQL the deltas the triggers appended, so that a
//! list's counts stay a read of a few rows however busy the account is).

use std::time::Duration;

use tidemark_domain::Timestamp;

use super::Tracker;

/// How often the counts are folded.
pub(super) const FOLD_EVERY: Duration = Duration::from_secs(5);

impl Tracker {
    /// Folds the kept counts, at most every [`FOLD_EVERY`]; a failure is logged and
    /// tried again then (the counts stay exact meanwhile, only slower to read).
    pub(super) async fn fold_counts(&self, now: Timestamp) {
        {
            let mut next = self
                .fold_at
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if next.is_some_and(|at| now < at) {
                return;
            }
            *next = Some(now + FOLD_EVERY);
        }
        match self.store.fold_counts().await {
            Ok(folded) if folded > 0 => tracing::debug!(folded, "the lists' counts folded"),
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "folding the lists' counts failed"),
        }
    }
}
