//! Keeping leases alive: a worker renews the leases of the work it holds every so often,
//! so a lease can be short. A process that dies stops renewing, and its jobs and deliveries
//! are claimable again a lease's length later (seconds), not after the longest a lookup or
//! a delivery may take.

use async_trait::async_trait;
use tidemark_domain::Timestamp;
use uuid::Uuid;

use crate::StoreError;
use crate::neutral::{Neutral, Query};

/// Renewing held leases.
#[async_trait]
pub trait LeaseStore: Send + Sync {
    /// Holds the jobs claimed under `tokens` until `until`; returns how many are still held.
    async fn renew_job_leases(&self, tokens: &[Uuid], until: Timestamp) -> Result<u64, StoreError>;

    /// Holds the notifications claimed under `tokens` until `until`; returns how many are
    /// still held.
    async fn renew_notification_leases(
        &self,
        tokens: &[Uuid],
        until: Timestamp,
    ) -> Result<u64, StoreError>;
}

async fn renew<B: Neutral + ?Sized>(
    backend: &B,
    table: &str,
    tokens: &[Uuid],
    until: Timestamp,
) -> Result<u64, StoreError> {
    if tokens.is_empty() {
        return Ok(0);
    }
    let mut query = Query::new(&format!("UPDATE {table} SET lease_until = "));
    query
        .bind(until)
        .push(" WHERE lease_token IN ")
        .bind_list(tokens.iter().copied());
    backend.execute(&query).await
}

#[async_trait]
impl<T: Neutral> LeaseStore for T {
    async fn renew_job_leases(&self, tokens: &[Uuid], until: Timestamp) -> Result<u64, StoreError> {
        renew(self, "jobs", tokens, until).await
    }

    async fn renew_notification_leases(
        &self,
        tokens: &[Uuid],
        until: Timestamp,
    ) -> Result<u64, StoreError> {
        renew(self, "webhook_notifications", tokens, until).await
    }
}
