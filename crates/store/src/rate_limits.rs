//! Rate limits kept in the database, so every process keeps to one rate together: one
//! statement per request takes the bucket's row and applies the step of the domain's
//! generic cell rate algorithm ([`Cell::take`]) to it, so requests to one bucket queue on
//! its row instead of racing for it (a read and a compare-and-swap lost to busy buckets:
//! a request refused for others' traffic, not for the rate).

use async_trait::async_trait;
use tidemark_domain::Timestamp;
use tidemark_domain::rate::Cell;

use crate::StoreError;
use crate::db::{Backend, Query, Unit};

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

/// [`Cell::take`] on the stored TAT in one statement: the TAT moves to the later of it
/// and now, plus one interval, when it is at most the tolerance ahead of now; a new
/// bucket starts at now. Returns the new TAT, or no row when the request may not pass.
fn take(greatest: &str, key: &str, cell: &Cell, now_us: i64) -> Query {
    Query::with(
        &format!(
            "INSERT INTO rate_limits (key, tat_us) VALUES ($1, $2 + $3) \
             ON CONFLICT (key) DO UPDATE SET tat_us = {greatest}(rate_limits.tat_us, $2) + $3 \
             WHERE rate_limits.tat_us - $2 <= $4 RETURNING tat_us"
        ),
        vec![
            key.into(),
            now_us.into(),
            cell.interval_us.into(),
            cell.tolerance_us().into(),
        ],
    )
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
        // Taken twice after a lost connection, a cell only waits one interval longer.
        let taken = self
            .write(Unit::retry_safe(vec![take(
                self.dialect().greatest,
                key,
                cell,
                now_us,
            )]))
            .await?
            .rows(0);
        if let Some(row) = taken.first() {
            return Ok(Ok(row.int("tat_us")?));
        }
        // Refused: from when one may pass, by the domain's reckoning on what is stored.
        let mut read = Query::new("SELECT tat_us FROM rate_limits WHERE key = ");
        read.bind(key);
        let tat = match self.fetch_one(&read).await? {
            Some(row) => Some(row.int("tat_us")?),
            None => None,
        };
        let until = cell
            .take(tat, now_us)
            .err()
            .unwrap_or(now_us + cell.interval_us);
        Ok(Err(Timestamp::from_unix_micros(until).unwrap_or(now)))
    }
}
