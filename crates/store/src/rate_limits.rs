//! Rate limits kept in the database, so every process keeps to one rate together: a
//! bucket's theoretical arrival time is read, the domain decides ([`Cell::take`]), and the
//! new one is written only if nobody wrote another meanwhile (compare-and-swap).

use async_trait::async_trait;
use tidemark_domain::Timestamp;
use tidemark_domain::rate::Cell;

use crate::StoreError;
use crate::db::{Backend, Query};

/// How often a take is tried again after losing a race for the same bucket.
const RACES: usize = 32;

/// Rate limits shared by every process.
#[async_trait]
pub trait RateLimitStore: Send + Sync {
    /// Lets one request of bucket `key` pass at `now` at `cell`'s rate: the bucket's new
    /// theoretical arrival time (Unix microseconds), or from when one may pass.
    async fn take_rate(
        &self,
        key: &str,
        cell: &Cell,
        now: Timestamp,
    ) -> Result<Result<i64, Timestamp>, StoreError>;
}

#[async_trait]
impl<T: Backend> RateLimitStore for T {
    async fn take_rate(
        &self,
        key: &str,
        cell: &Cell,
        now: Timestamp,
    ) -> Result<Result<i64, Timestamp>, StoreError> {
        let now_us = now.unix_micros();
        for _ in 0..RACES {
            let mut read = Query::new("SELECT tat_us FROM rate_limits WHERE key = ");
            read.bind(key);
            let tat = match self.fetch_one(&read).await? {
                Some(row) => Some(row.int("tat_us")?),
                None => None,
            };
            let next = match cell.take(tat, now_us) {
                Ok(next) => next,
                Err(until) => return Ok(Err(Timestamp::from_unix_micros(until).unwrap_or(now))),
            };
            let mut write;
            match tat {
                None => {
                    write = Query::new("INSERT INTO rate_limits (key, tat_us) VALUES (");
                    write
                        .bind(key)
                        .push(", ")
                        .bind(next)
                        .push(") ON CONFLICT (key) DO NOTHING");
                }
                Some(old) => {
                    write = Query::new("UPDATE rate_limits SET tat_us = ");
                    write
                        .bind(next)
                        .push(" WHERE key = ")
                        .bind(key)
                        .push(" AND tat_us = ")
                        .bind(old);
                }
            }
            if self.execute(write).await? == 1 {
                return Ok(Ok(next));
            }
        }
        // Lost every race: the others are taking; this one waits a turn.
        Ok(Err(now
            + std::time::Duration::from_micros(
                u64::try_from(cell.interval_us).unwrap_or(1),
            )))
    }
}
