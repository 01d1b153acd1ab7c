//! Per-party limits: a token bucket (requests per second, with a burst) and a cap on
//! requests in flight, so Tidemark never asks a carrier or a terminal more than it allows,
//! however many tracking requests are open.

use std::num::NonZeroU32;
use std::sync::Arc;

use async_trait::async_trait;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use tidemark_domain::LookupOutcome;
use tokio::sync::{Semaphore, SemaphorePermit};

use crate::{CarrierConnector, Lookup};

/// What one carrier or terminal allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// Sustained requests per second.
    pub per_second: NonZeroU32,
    /// Requests allowed at once after a quiet spell.
    pub burst: NonZeroU32,
    /// Lookups in flight at once.
    pub concurrency: NonZeroU32,
}

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            per_second: NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN),
            burst: NonZeroU32::new(20).unwrap_or(NonZeroU32::MIN),
            concurrency: NonZeroU32::new(8).unwrap_or(NonZeroU32::MIN),
        }
    }
}

/// A party's limits at work: a token bucket and slots for requests in flight.
#[derive(Debug)]
pub struct Gate {
    bucket: DefaultDirectRateLimiter,
    slots: Semaphore,
}

impl Gate {
    /// A gate keeping to `limits`.
    #[must_use]
    pub fn new(limits: RateLimits) -> Self {
        Self {
            bucket: RateLimiter::direct(
                Quota::per_second(limits.per_second).allow_burst(limits.burst),
            ),
            slots: Semaphore::new(limits.concurrency.get() as usize),
        }
    }

    /// Waits for a slot and a token; the request may go while the permit is held.
    pub async fn enter(&self) -> Option<SemaphorePermit<'_>> {
        // The semaphore is never closed, so acquiring only waits.
        let slot = self.slots.acquire().await.ok();
        self.bucket.until_ready().await;
        slot
    }

    /// Slots free right now.
    #[must_use]
    pub fn free_slots(&self) -> usize {
        self.slots.available_permits()
    }
}

/// A connector kept within a carrier's limits.
#[derive(Debug)]
pub struct Limited {
    inner: Arc<dyn CarrierConnector>,
    gate: Gate,
}

impl Limited {
    /// `inner` within `limits`.
    #[must_use]
    pub fn new(inner: Arc<dyn CarrierConnector>, limits: RateLimits) -> Self {
        Self {
            inner,
            gate: Gate::new(limits),
        }
    }

    /// Lookup slots free right now.
    #[must_use]
    pub fn free_slots(&self) -> usize {
        self.gate.free_slots()
    }
}

#[async_trait]
impl CarrierConnector for Limited {
    async fn lookup(&self, lookup: &Lookup) -> LookupOutcome {
        let _slot = self.gate.enter().await;
        self.inner.lookup(lookup).await
    }
}
