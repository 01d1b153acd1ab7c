//! Per-carrier limits: a token bucket (requests per second, with a burst) and a cap on
//! lookups in flight, so Tidemark never asks a carrier more than it allows, however many
//! tracking requests are open.

use std::num::NonZeroU32;
use std::sync::Arc;

use async_trait::async_trait;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use tidemark_domain::LookupOutcome;
use tokio::sync::Semaphore;

use crate::{CarrierConnector, Lookup};

/// What one carrier allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CarrierLimits {
    /// Sustained requests per second.
    pub per_second: NonZeroU32,
    /// Requests allowed at once after a quiet spell.
    pub burst: NonZeroU32,
    /// Lookups in flight at once.
    pub concurrency: NonZeroU32,
}

impl Default for CarrierLimits {
    fn default() -> Self {
        Self {
            per_second: NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN),
            burst: NonZeroU32::new(20).unwrap_or(NonZeroU32::MIN),
            concurrency: NonZeroU32::new(8).unwrap_or(NonZeroU32::MIN),
        }
    }
}

/// A connector kept within a carrier's limits.
#[derive(Debug)]
pub struct Limited {
    inner: Arc<dyn CarrierConnector>,
    bucket: DefaultDirectRateLimiter,
    slots: Semaphore,
}

impl Limited {
    /// `inner` within `limits`.
    #[must_use]
    pub fn new(inner: Arc<dyn CarrierConnector>, limits: CarrierLimits) -> Self {
        Self {
            inner,
            bucket: RateLimiter::direct(
                Quota::per_second(limits.per_second).allow_burst(limits.burst),
            ),
            slots: Semaphore::new(limits.concurrency.get() as usize),
        }
    }

    /// Lookup slots free right now.
    #[must_use]
    pub fn free_slots(&self) -> usize {
        self.slots.available_permits()
    }
}

#[async_trait]
impl CarrierConnector for Limited {
    async fn lookup(&self, lookup: &Lookup) -> LookupOutcome {
        // The semaphore is never closed, so acquiring only waits.
        let _slot = self.slots.acquire().await;
        self.bucket.until_ready().await;
        self.inner.lookup(lookup).await
    }
}
