//! Carriers' quotas shared by every process on the database: the state is read, the
//! domain decides ([`Quota::take`]), and the new state is written only if nobody wrote
//! another meanwhile (compare-and-swap); a lost race reads again.

use async_trait::async_trait;
use tidemark_domain::quota::{Quota, QuotaState};
use tidemark_domain::{Scac, Timestamp};

use crate::StoreError;
use crate::db::{Backend, Query};

/// How often a call is tried again after losing a race for the same quota.
const RACES: usize = 32;

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

#[async_trait]
impl<T: Backend> QuotaStore for T {
    async fn take_quota(
        &self,
        scac: Scac,
        quota: &Quota,
        now: Timestamp,
    ) -> Result<Result<(), Timestamp>, StoreError> {
        for _ in 0..RACES {
            let state = self.quota_state(scac).await?;
            let next = match quota.take(state, now) {
                Ok(next) => next,
                Err(until) => return Ok(Err(until)),
            };
            let mut query;
            match state {
                None => {
                    query =
                        Query::new("INSERT INTO carrier_quotas (scac, tat_us, day, used) VALUES (");
                    query
                        .bind(scac.as_str())
                        .push(", ")
                        .bind(next.tat_us)
                        .push(", ")
                        .bind(next.day)
                        .push(", ")
                        .bind(next.used)
                        .push(") ON CONFLICT (scac) DO NOTHING");
                }
                Some(old) => {
                    query = Query::new("UPDATE carrier_quotas SET tat_us = ");
                    query
                        .bind(next.tat_us)
                        .push(", day = ")
                        .bind(next.day)
                        .push(", used = ")
                        .bind(next.used)
                        .push(" WHERE scac = ")
                        .bind(scac.as_str())
                        .push(" AND tat_us = ")
                        .bind(old.tat_us)
                        .push(" AND day = ")
                        .bind(old.day)
                        .push(" AND used = ")
                        .bind(old.used);
                }
            }
            if self.execute(query).await? == 1 {
                return Ok(Ok(()));
            }
        }
        // Lost every race: the others are calling; this one waits a turn.
        let turn = u64::try_from(quota.interval_us()).unwrap_or(1);
        Ok(Err(now + std::time::Duration::from_micros(turn)))
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
