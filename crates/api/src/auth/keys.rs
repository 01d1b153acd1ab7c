//! The keys this process verified, kept in memory so a request does not read the database
//! to know its caller. A revocation anywhere moves the database's key counter
//! (`AccountStore::api_key_revision`), which each process reads at most every [`RECHECK`]:
//! when it moved, the process forgets every key it kept. So a revoked key is refused by
//! every process within [`RECHECK`] and one read.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tidemark_domain::{ApiKeyRecord, ApiKeySecret, Timestamp};
use tidemark_store::{Store, StoreError};

/// How often the key counter is read.
pub const RECHECK: Duration = Duration::from_millis(250);

/// Most keys kept; beyond, new ones are verified against the database each time.
const MAX_KEYS: usize = 10_000;

#[derive(Debug, Default)]
struct Kept {
    /// The counter the keys were verified under.
    revision: i64,
    /// When it was last read.
    read_at: Option<Instant>,
    /// The keys, by visible prefix.
    keys: HashMap<String, ApiKeyRecord>,
}

/// The keys this process verified.
#[derive(Debug, Default)]
pub struct KeyCache(Mutex<Kept>);

impl KeyCache {
    fn kept(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The record of `key` when it is valid and unrevoked, its use at `now` recorded when
    /// it is news (`ApiKeyRecord::use_is_news`: at most hourly per key and process).
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn verified(
        &self,
        key: &ApiKeySecret,
        store: &dyn Store,
        now: Timestamp,
    ) -> Result<Option<ApiKeyRecord>, StoreError> {
        let record = self.checked(key, store).await?;
        if let Some(record) = record.as_ref().filter(|record| record.use_is_news(now)) {
            if let Some(kept) = self.kept().keys.get_mut(&record.prefix) {
                kept.last_used_at = Some(now);
            }
            // A use not written is not worth refusing the caller for.
            if let Err(error) = store.touch_api_key(record.id, now).await {
                tracing::warn!(%error, prefix = %record.prefix, "a key's last use was not written");
            }
        }
        Ok(record)
    }

    async fn checked(
        &self,
        key: &ApiKeySecret,
        store: &dyn Store,
    ) -> Result<Option<ApiKeyRecord>, StoreError> {
        let stale = self
            .kept()
            .read_at
            .is_none_or(|read| read.elapsed() >= RECHECK);
        if stale {
            // Read before any key is fetched: a key kept under this counter was valid
            // when the counter had this value or later.
            let revision = store.api_key_revision().await?;
            let mut kept = self.kept();
            if revision != kept.revision {
                kept.keys.clear();
                kept.revision = revision;
            }
            kept.read_at = Some(Instant::now());
        }
        let under = {
            let kept = self.kept();
            if let Some(record) = kept.keys.get(key.prefix()) {
                return Ok(record.accepts(key).then(|| record.clone()));
            }
            kept.revision
        };
        let record = store
            .api_key_by_prefix(key.prefix())
            .await?
            .filter(|record| record.accepts(key));
        if let Some(record) = &record {
            let mut kept = self.kept();
            // Kept only if no revocation was heard of meanwhile: one heard of while this
            // key was read may be its own.
            if kept.revision == under && kept.keys.len() < MAX_KEYS {
                kept.keys.insert(record.prefix.clone(), record.clone());
            }
        }
        Ok(record)
    }
}
