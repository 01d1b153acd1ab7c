//! What operators alert on, counted across every account at each scrape of `/metrics`:
//! tracking requests by status, boxes a hold blocks, boxes past their last free day, and
//! the oldest delivery still owed. Reads only; written once over [`Backend`] for both
//! backends, over the list filters' columns (`has_holds`, `pickup_lfd`, decided by the
//! domain's `terminal::Standing`).

use async_trait::async_trait;
use tidemark_domain::{ContainerStatus, RequestStatus, Timestamp};

use crate::StoreError;
use crate::db::{Backend, Query, Row};

/// The operators' figures at one instant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Gauges {
    /// Tracking requests per status; a status no request has is listed with 0.
    pub requests: Vec<(RequestStatus, u64)>,
    /// Boxes a hold in force blocks.
    pub containers_on_hold: u64,
    /// Boxes still at their terminal (not gone) whose last free day has passed.
    pub containers_past_last_free_day: u64,
    /// When the oldest pending notification of an active webhook was due.
    pub oldest_pending_delivery: Option<Timestamp>,
}

/// Reading the operators' figures.
#[async_trait]
pub trait GaugeStore: Send + Sync {
    /// The figures at `now`.
    async fn gauges(&self, now: Timestamp) -> Result<Gauges, StoreError>;
}

/// A count as the gauges hold it.
fn count(row: &Row, name: &str) -> Result<u64, StoreError> {
    Ok(u64::try_from(row.int(name)?).unwrap_or(0))
}

#[async_trait]
impl<T: Backend> GaugeStore for T {
    async fn gauges(&self, now: Timestamp) -> Result<Gauges, StoreError> {
        let by_status =
            Query::new("SELECT status, COUNT(*) AS n FROM tracking_requests GROUP BY status");
        let mut requests: Vec<(RequestStatus, u64)> = RequestStatus::ALL
            .iter()
            .map(|status| (*status, 0))
            .collect();
        for row in self.fetch(&by_status).await? {
            let status = row.parsed("status", RequestStatus::parse)?;
            if let Some(entry) = requests.iter_mut().find(|(s, _)| *s == status) {
                entry.1 = count(&row, "n")?;
            }
        }
        let gone = ContainerStatus::ALL
            .into_iter()
            .filter(|status| status.gone())
            .map(ContainerStatus::as_str);
        let mut containers = Query::new(
            "SELECT COALESCE(SUM(CASE WHEN has_holds THEN 1 ELSE 0 END), 0) AS held, \
             COALESCE(SUM(CASE WHEN pickup_lfd < ",
        );
        containers
            .bind(now)
            .push(" AND current_status NOT IN ")
            .bind_list(gone)
            .push(
                " THEN 1 ELSE 0 END), 0) AS late FROM containers WHERE has_holds OR pickup_lfd < ",
            )
            .bind(now);
        let rows = self.fetch(&containers).await?;
        let (containers_on_hold, containers_past_last_free_day) = match rows.first() {
            Some(row) => (count(row, "held")?, count(row, "late")?),
            None => (0, 0),
        };
        let oldest = Query::new(
            "SELECT MIN(n.due_at) AS due_at FROM webhook_notifications n \
             JOIN webhooks w ON w.id = n.webhook_id \
             WHERE n.delivery_status = 'pending' AND w.active",
        );
        let oldest_pending_delivery = match self.fetch(&oldest).await?.first() {
            Some(row) => row.time("due_at")?,
            None => None,
        };
        Ok(Gauges {
            requests,
            containers_on_hold,
            containers_past_last_free_day,
            oldest_pending_delivery,
        })
    }
}
