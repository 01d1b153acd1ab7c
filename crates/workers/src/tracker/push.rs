//! Carriers that push (DCSA 2.2 event subscriptions): a shipment is subscribed at its
//! carrier once a lookup has found it, with a fresh 32-byte secret; its refreshes then slow
//! to the safety net (`Policy::refresh_pushed`, decided by the domain from the shipment's
//! push). Every minute or so the tracker tends the pushes: a stopped shipment's subscription
//! is ended, a secret older than [`SECRET_MAX_AGE`] replaced. A carrier that fails leaves
//! things as they are, to be tried again: polling goes on meanwhile.

use std::time::Duration;

use tidemark_domain::tracking::Change;
use tidemark_domain::{CarrierPush, PushSecret, Shipment, Timestamp};

use super::{Tracker, lookup_of};
use crate::WorkerError;

/// How long a push secret is used before it is replaced.
pub const SECRET_MAX_AGE: Duration = Duration::from_secs(30 * 24 * 3600);

/// How often the pushes are tended.
const TEND_EVERY: Duration = Duration::from_secs(60);

/// Most pushes tended at once.
const TEND_BATCH: u32 = 50;

impl Tracker {
    /// Subscribes `change`'s shipment at its carrier when the carrier pushes, the request
    /// is tracked and no subscription is live.
    pub(super) async fn subscribe_at_carrier(&self, change: &Change) -> Result<(), WorkerError> {
        let Some(shipment) = &change.shipment else {
            return Ok(());
        };
        if shipment.carrier_push.is_some()
            || shipment.stopped_at.is_some()
            || !change.request.status.is_open()
        {
            return Ok(());
        }
        let Some(pusher) = self.carriers.pusher(shipment.scac) else {
            return Ok(());
        };
        let lookup = lookup_of(&change.request, shipment.scac, None);
        let secret = PushSecret::generate();
        match pusher
            .subscriber
            .subscribe(&lookup, &pusher.callback_url, &secret)
            .await
        {
            Ok(subscription_id) => {
                let push = CarrierPush {
                    subscription_id,
                    secret,
                    secret_set_at: self.clock.now(),
                };
                self.store
                    .set_carrier_push(shipment.id, Some(&push))
                    .await?;
                tracing::info!(shipment = %shipment.id, carrier = %shipment.scac, "the carrier pushes this shipment's events");
            }
            Err(failure) => {
                tracing::warn!(shipment = %shipment.id, carrier = %shipment.scac, %failure, "subscribing at the carrier failed; polling goes on");
            }
        }
        Ok(())
    }

    /// Ends the pushes of stopped shipments and replaces stale secrets, at most every
    /// [`TEND_EVERY`].
    pub(super) async fn tend_pushes(&self, now: Timestamp) -> Result<(), WorkerError> {
        {
            let mut next = self
                .tend_at
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if next.is_some_and(|at| now < at) {
                return Ok(());
            }
            *next = Some(now + TEND_EVERY);
        }
        let stale = now - SECRET_MAX_AGE;
        for shipment in self.store.pushes_to_tend(stale, TEND_BATCH).await? {
            self.tend(&shipment, now).await?;
        }
        Ok(())
    }

    async fn tend(&self, shipment: &Shipment, now: Timestamp) -> Result<(), WorkerError> {
        let Some(push) = &shipment.carrier_push else {
            return Ok(());
        };
        let Some(pusher) = self.carriers.pusher(shipment.scac) else {
            // The carrier no longer pushes here: its subscription is forgotten.
            self.store.set_carrier_push(shipment.id, None).await?;
            return Ok(());
        };
        let subscriber = &pusher.subscriber;
        if shipment.stopped_at.is_some() {
            match subscriber.unsubscribe(&push.subscription_id).await {
                Ok(()) => self.store.set_carrier_push(shipment.id, None).await?,
                Err(failure) => {
                    tracing::warn!(shipment = %shipment.id, %failure, "ending the carrier's push failed; tried again later");
                }
            }
            return Ok(());
        }
        let secret = PushSecret::generate();
        match subscriber.rotate(&push.subscription_id, &secret).await {
            Ok(()) => {
                let rotated = CarrierPush {
                    secret,
                    secret_set_at: now,
                    ..push.clone()
                };
                self.store
                    .set_carrier_push(shipment.id, Some(&rotated))
                    .await?;
            }
            Err(failure) => {
                tracing::warn!(shipment = %shipment.id, %failure, "replacing the push secret failed; tried again later");
            }
        }
        Ok(())
    }
}
