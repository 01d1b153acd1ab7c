//! Carriers' quotas shared by every process on the database: one statement per call
//! takes the quota's row and applies the domain's step ([`Quota::take`]: the rate's
//! generic cell rate algorithm and the day's count) to it, so calls to one carrier queue
//! on its row instead of racing for it.

use async_trait::async_trait;
use tidemark_domain::quota::{Quota, QuotaState};
use tidemark_domain::{Scac, Timestamp};

use crate::StoreError;
use crate::db::{Backend, Query};

/// Carriers' quotas.
#[async_trait]
pub trait QuotaStore: Send + Sync {
    /// Spends one call of `scac`'s `quota` at `now`, or says when one may go.
    async fn take_quota(
        &self,
        scac: Scac,
        quota: &Quota,
        now: Timestamp,
    ) -> Result<Result<(), Timestamp>, StoreError>;

    /// `scac`'s quota state, when it has been used.
    async fn quota_state(&self, scac: Scac) -> Result<Option<QuotaState>, StoreError>;
}

/// [`Quota::take`] on the stored state in one statement: a call passes while the day's
/// calls (counted anew on a new UTC day) are under its most and the rate's TAT is at most
/// the tolerance ahead of now; the TAT then moves to the later of it and now plus one
/// interval. Returns a row when the call may go.
fn take(greatest: &str, scac: Scac, quota: &Quota, now: Timestamp) -> Query {
    let cell = quota.cell();
    Query::with(
        &format!(
            "INSERT INTO carrier_quotas (scac, tat_us, day, used) VALUES ($1, $2 + $3, $5, 1) \
             ON CONFLICT (scac) DO UPDATE SET \
             tat_us = {greatest}(carrier_quotas.tat_us, $2) + $3, \
             used = CASE WHEN carrier_quotas.day = $5 THEN carrier_quotas.used + 1 ELSE 1 END, \
             day = $5 \
             WHERE carrier_quotas.tat_us - $2 <= $4 \
             AND (carrier_quotas.day <> $5 OR carrier_quotas.used < $6) RETURNING tat_us"
        ),
        vec![
            scac.as_str().into(),
            now.unix_micros().into(),
            cell.interval_us.into(),
            cell.tolerance_us().into(),
            Quota::day_of(now).into(),
            quota.daily().into(),
        ],
    )
}

#[async_trait]
impl<T: Backend> QuotaStore for T {
    async fn take_quota(
        &self,
        scac: Scac,
        quota: &Quota,
        now: Timestamp,
    ) -> Result<Result<(), Timestamp>, StoreError> {
        let taken = self
            .returning(take(self.dialect().greatest, scac, quota, now))
            .await?;
        if !taken.is_empty() {
            return Ok(Ok(()));
        }
        // Refused: until when, by the domain's reckoning on what is stored.
        let state = self.quota_state(scac).await?;
        let turn = u64::try_from(quota.interval_us()).unwrap_or(1);
        Ok(Err(quota.take(state, now).err().unwrap_or_else(|| {
            now + std::time::Duration::from_micros(turn)
        })))
    }

    async fn quota_state(&self, scac: Scac) -> Result<Option<QuotaState>, StoreError> {
        let mut query = Query::new("SELECT tat_us, day, used FROM carrier_quotas WHERE scac = ");
        query.bind(scac.as_str());
        let Some(row) = self.fetch_one(&query).await? else {
            return Ok(None);
        };
        Ok(Some(QuotaState {
            tat_us: row.int("tat_us")?,
            day: row.int("day")?,
            used: row.int("used")?,
        }))
    }
}
