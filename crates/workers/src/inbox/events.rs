//! A carrier's events pushed to a subscription (DCSA 2.2, `POST /carrier-callbacks/{SCAC}`):
//! the subscription named by `Subscription-ID` is found by carrier and id, the
//! `Notification-Signature` checked over the raw body with its secret, in constant time;
//! the events are read with the carrier's quirks and checked as a poll's are, and heard
//! once by `eventID` (a replay, or an older copy out of order, is no news). News queues the
//! shipment's refresh at once: the tracker reads the carrier's whole answer, which the
//! events belong to, and commits it through the same mapping and the same one transaction
//! as any lookup. A push is a few events of a shipment, not the shipment: reading the whole
//! keeps one path from the carrier's words to a change, and a retraction right.

use std::collections::BTreeSet;

use tidemark_domain::{JobKind, NewJob, Scac, TrackingSource};
use tidemark_store::StoreError;

use super::{CallbackReply, Inbox, bearer};

impl Inbox {
    pub(super) async fn take_events_push(
        &self,
        scac: &str,
        subscription: &str,
        signature: &str,
        body: &[u8],
    ) -> Result<CallbackReply, StoreError> {
        let Ok(scac) = Scac::parse(scac) else {
            return Ok(CallbackReply::Unauthorized);
        };
        let Some(shipment) = self.store.shipment_of_push(scac, subscription).await? else {
            return Ok(CallbackReply::Unauthorized);
        };
        let Some(push) = &shipment.carrier_push else {
            return Ok(CallbackReply::Unauthorized);
        };
        if !push.secret.verifies(body, signature) {
            tracing::warn!(carrier = %scac, shipment = %shipment.id, "a carrier push with a wrong signature");
            return Ok(CallbackReply::Unauthorized);
        }
        let Some(pusher) = self.carriers.pusher(scac) else {
            // The carrier no longer pushes here; its subscription ends with the next tending.
            return Ok(CallbackReply::Accepted);
        };
        let events = match pusher.subscriber.read_pushed(body) {
            Ok(events) => events,
            Err(problem) => return Ok(CallbackReply::Refused(problem)),
        };
        if shipment.stopped_at.is_some() || events.is_empty() {
            return Ok(CallbackReply::Accepted);
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
        Ok(CallbackReply::Accepted)
    }
}

impl Inbox {
    /// A carrier's DCSA 3.0 push (`POST /carrier-callbacks/{SCAC}/v3/events`, `{"events":
    /// […]}`), from a caller presenting the carrier's token: the events are read with its
    /// quirks and checked; every open request of the carrier tracking a document or a
    /// container they name hears them once by `eventID`, and news queues its refresh at
    /// once, as a 2.2 push does. The answer is DCSA's `PostEventsResponse`.
    pub(super) async fn take_v3_push(
        &self,
        scac: &str,
        token: Option<&str>,
        body: &[u8],
    ) -> Result<CallbackReply, StoreError> {
        let scac = Scac::parse(scac).ok();
        let Some((scac, source)) = bearer(scac, token, |scac, token| {
            self.carriers.authorize_push(*scac, token)
        }) else {
            return Ok(CallbackReply::Unauthorized);
        };
        let pushed = match self.carriers.read_v3_push(scac, body) {
            Ok(pushed) => pushed,
            Err(problem) => return Ok(feedback(400, "ERROR", &problem)),
        };
        let source = TrackingSource::from(source);
        let mut requests = BTreeSet::new();
        for document in &pushed.documents {
            requests.extend(
                self.store
                    .open_requests_of_bill(scac, document, source)
                    .await?,
            );
        }
        let containers: Vec<String> = pushed.containers.iter().cloned().collect();
        requests.extend(
            self.store
                .open_requests_of_containers(&containers, source)
                .await?,
        );
        let mut refreshed = 0;
        for id in requests {
            let Some(tracked) = self.store.tracked(id).await? else {
                continue;
            };
            if tracked.shipment.scac != scac || tracked.shipment.stopped_at.is_some() {
                continue;
            }
            if self
                .store
                .record_pushed_events(tracked.shipment.id, &pushed.events)
                .await?
                > 0
            {
                let refresh = NewJob {
                    kind: JobKind::Refresh,
                    key: id.to_string(),
                    due_at: self.clock.now(),
                    if_absent: false,
                };
                self.store.schedule_job(&refresh).await?;
                refreshed += 1;
            }
        }
        if refreshed > 0 {
            self.work_queued();
        }
        tracing::info!(carrier = %scac, events = pushed.events.len(), refreshed, "carrier push (3.0)");
        let message = format!(
            "{} events taken; {refreshed} tracked shipments read again",
            pushed.events.len()
        );
        Ok(feedback(200, "INFO", &message))
    }
}

/// DCSA's answer to a push: one feedback element.
fn feedback(status: u16, severity: &str, message: &str) -> CallbackReply {
    CallbackReply::Answered {
        status,
        body: serde_json::json!({"feedbackElements": [{"severity": severity, "message": message}]}),
    }
}
