//! A carrier's events pushed to a subscription (DCSA 2.2, `POST /carrier-callbacks/{SCAC}`):
//! the subscription named by `Subscription-ID` is found by carrier and id, the
//! `Notification-Signature` checked over the raw body with its secret, in constant time;
//! the events are read with the carrier's quirks and checked as a poll's are, and heard
//! once by `eventID` (a replay, or an older copy out of order, is no news). News queues the
//! shipment's refresh at once: the tracker reads the carrier's whole answer, which the
//! events belong to, and commits it through the same mapping and the same one transaction
//! as any lookup. A push is a few events of a shipment, not the shipment: reading the whole
//! keeps one path from the carrier's words to a change, and a retraction right.

use tidemark_domain::{JobKind, NewJob, Scac};
use tidemark_store::StoreError;

use super::{Inbox, Receipt};

impl Inbox {
    pub(super) async fn take_events_push(
        &self,
        scac: &str,
        subscription: &str,
        signature: &str,
        body: &[u8],
    ) -> Result<Receipt, StoreError> {
        let Ok(scac) = Scac::parse(scac) else {
            return Ok(Receipt::Unauthorized);
        };
        let Some(shipment) = self.store.shipment_of_push(scac, subscription).await? else {
            return Ok(Receipt::Unauthorized);
        };
        let Some(push) = &shipment.carrier_push else {
            return Ok(Receipt::Unauthorized);
        };
        if !push.secret.verifies(body, signature) {
            tracing::warn!(carrier = %scac, shipment = %shipment.id, "a carrier push with a wrong signature");
            return Ok(Receipt::Unauthorized);
        }
        let Some(pusher) = self.carriers.pusher(scac) else {
            // The carrier no longer pushes here; its subscription ends with the next tending.
            return Ok(Receipt::Accepted);
        };
        let events = match pusher.subscriber.read_pushed(body) {
            Ok(events) => events,
            Err(problem) => return Ok(Receipt::Refused(problem)),
        };
        if shipment.stopped_at.is_some() || events.is_empty() {
            return Ok(Receipt::Accepted);
        }
        let news = self
            .store
            .record_pushed_events(shipment.id, &events)
            .await?;
        if news > 0 {
            let now = self.clock.now();
            let refresh = NewJob {
                kind: JobKind::Refresh,
                key: shipment.tracking_request_id.to_string(),
                due_at: now,
                if_absent: false,
            };
            self.store.schedule_job(&refresh).await?;
            self.work_queued();
        }
        tracing::info!(carrier = %scac, shipment = %shipment.id, events = events.len(), news, "carrier push");
        Ok(Receipt::Accepted)
    }
}
