//! `predict_arrival` jobs: Tidemark's own arrival estimate of a tracked shipment at sea,
//! made from its vessel's latest position over the sea routes
//! ([`VoyageView::prediction`]), which the domain keeps, or not, and compares with the
//! carrier's (`domain::tracking::prediction`). Nothing is asked of a carrier.

use tidemark_app::Observation;
use tidemark_app::voyage::VoyageView;
use tidemark_domain::ClaimedJob;

use super::Tracker;
use crate::WorkerError;

impl Tracker {
    /// Works a `predict_arrival` job.
    pub(super) async fn predict_arrival(&self, job: &ClaimedJob) -> Result<(), WorkerError> {
        let Some(current) = self.tracked_of(job).await? else {
            return Ok(());
        };
        let Some(prior) = &current.tracked else {
            return Ok(());
        };
        let view = VoyageView::read(self.store.as_ref(), &prior.shipment, &prior.events).await?;
        let prediction = view.prediction(self.clock.now());
        let id = current.request.id;
        let applied = self
            .tracking
            .apply(Some(job), current, |_| {
                Some(Observation::Predicted(prediction))
            })
            .await?;
        self.settle(job, id, applied).await?;
        Ok(())
    }
}
