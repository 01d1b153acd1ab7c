//! `arrival_notice` jobs: a line said a new Arrival Notice of a tracked shipment's bill is
//! out, so its publisher is read now and the notice applied as a pushed one is
//! ([`Inbox`](crate::Inbox)). A publisher that fails is asked again at the terminal
//! checks' retry times, a few times; the checks read the notices at their own cadence
//! anyway.

use tidemark_carriers::http::Failure;
use tidemark_carriers::registry::Source;
use tidemark_domain::ClaimedJob;
use tidemark_domain::tracking;

use super::Tracker;
use crate::WorkerError;

/// Claims of one job after which a failing publisher is given up on.
const MAX_ATTEMPTS: u32 = 3;

impl Tracker {
    /// Works an `arrival_notice` job.
    pub(super) async fn read_notice(&self, job: &ClaimedJob) -> Result<(), WorkerError> {
        let Some(current) = self.tracked_of(job).await? else {
            return Ok(());
        };
        let Some(prior) = &current.tracked else {
            return Ok(());
        };
        let shipment = &prior.shipment;
        let source = Source::from(shipment.source);
        let Some(connector) = self
            .carriers
            .arrival_notices()
            .connector(shipment.scac, source)
        else {
            // The line pushes notifications but serves no notices from here.
            self.store.complete_job(job).await?;
            return Ok(());
        };
        match connector.notices(&shipment.bill_of_lading_number).await {
            Ok(notices) => {
                tracing::info!(carrier = %shipment.scac, containers = notices.len(), "arrival notice read on notification");
                let id = current.request.id;
                let applied = self.inbox.apply(Some(job), id, &notices, &[], None).await?;
                self.settle(job, id, applied).await?;
            }
            Err(failure) if job.attempts >= MAX_ATTEMPTS => {
                tracing::warn!(carrier = %shipment.scac, %failure, "arrival notice still failing; left to the terminal checks");
                self.store.complete_job(job).await?;
            }
            Err(failure) => {
                tracing::warn!(carrier = %shipment.scac, %failure, "arrival notice failed");
                let (retry_after, refused) = match &failure {
                    Failure::Temporary(reason) => (reason.retry_after(), false),
                    Failure::Forbidden => (None, true),
                };
                let at = tracking::terminal_retry(
                    self.clock.now(),
                    retry_after,
                    refused,
                    self.settings.policies.of(Some(shipment.scac)),
                );
                self.store.reschedule_job(job, at).await?;
            }
        }
        Ok(())
    }
}
