//! DCSA Track & Trace 2.2 event subscriptions (`/v2/event-subscriptions`): a subscriber
//! names its shipment (a booking, a transport document or a container), a callback URL and
//! a shared secret (base64, 32 to 64 bytes decoded, as the reference implementation takes
//! it); the carrier pushes new events there, signed (`Notification-Signature: sha256=<hex
//! HMAC-SHA256 of the raw body>`), when the admin API says so.

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::world::Reference;

/// Smallest and largest secret, in bytes after decoding.
pub const SECRET_BYTES: std::ops::RangeInclusive<usize> = 32..=64;

/// Most subscriptions held; beyond, a subscription is refused.
pub const CAP: usize = 100_000;

/// One subscription.
#[derive(Debug, Clone)]
pub struct Subscription {
    /// `subscriptionID`.
    pub id: Uuid,
    /// The carrier.
    pub scac: String,
    /// The shipment it names.
    pub reference: Reference,
    /// Where events go.
    pub callback_url: String,
    /// The shared secret, decoded.
    pub secret: Vec<u8>,
    /// Events pushed so far, by id.
    pub pushed: BTreeSet<String>,
    /// The last batch pushed (a replay sends it again).
    pub last: Vec<Value>,
}

impl Subscription {
    /// The subscription as the API shows it (never its secret).
    #[must_use]
    pub fn view(&self) -> Value {
        let (filter, value) = match &self.reference {
            Reference::Booking(v) => ("carrierBookingReference", v),
            Reference::TransportDocument(v) => ("transportDocumentReference", v),
            Reference::Equipment(v) => ("equipmentReference", v),
        };
        json!({"subscriptionID": self.id, "callbackUrl": self.callback_url, filter: value})
    }
}

/// A decoded secret, or what is wrong with it.
///
/// # Errors
/// Not base64, or outside [`SECRET_BYTES`].
pub fn secret(text: &str) -> Result<Vec<u8>, String> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|_| "secret is not base64".to_owned())?;
    if SECRET_BYTES.contains(&bytes.len()) {
        Ok(bytes)
    } else {
        Err(format!(
            "secret decodes to {} bytes; 32 to 64 are taken",
            bytes.len()
        ))
    }
}

/// Every subscription, by id.
#[derive(Debug, Default)]
pub struct EventSubscriptions {
    by_id: BTreeMap<Uuid, Subscription>,
}

impl EventSubscriptions {
    /// Adds `subscription`; `false` when full.
    pub fn add(&mut self, subscription: Subscription) -> bool {
        if self.by_id.len() >= CAP {
            return false;
        }
        self.by_id.insert(subscription.id, subscription);
        true
    }

    /// The subscription `id` at `scac`.
    pub fn get_mut(&mut self, scac: &str, id: Uuid) -> Option<&mut Subscription> {
        self.by_id.get_mut(&id).filter(|s| s.scac == scac)
    }

    /// Removes the subscription `id` at `scac`; whether there was one.
    pub fn remove(&mut self, scac: &str, id: Uuid) -> bool {
        if self.get_mut(scac, id).is_none() {
            return false;
        }
        self.by_id.remove(&id).is_some()
    }

    /// The subscriptions of `scac`, or of every carrier.
    #[must_use]
    pub fn of(&self, scac: Option<&str>) -> Vec<Subscription> {
        self.by_id
            .values()
            .filter(|s| scac.is_none_or(|scac| s.scac.eq_ignore_ascii_case(scac)))
            .cloned()
            .collect()
    }

    /// Records what was pushed to `id`.
    pub fn pushed(&mut self, id: Uuid, batch: &[Value]) {
        if let Some(subscription) = self.by_id.get_mut(&id) {
            for event in batch {
                if let Some(event_id) = event["eventID"].as_str() {
                    subscription.pushed.insert(event_id.to_owned());
                }
            }
            subscription.last = batch.to_vec();
        }
    }
}
