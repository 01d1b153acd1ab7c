//! The port through which the lines and the terminals push (DCSA event subscriptions,
//! Arrival Notices, a terminal's answers to a subscription): the API carries a push to it
//! (`POST /carrier-callbacks/…`, `/terminal-callbacks/…`), and the workers' inbox, which
//! knows the parties and reads their formats, receives it. Declared here, once, so that
//! neither adapter depends on the other.

use std::fmt;

use serde_json::Value;

/// What a line pushed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Callback {
    /// `{"arrivalNotices": […]}`.
    ArrivalNotices,
    /// `{"arrivalNoticeNotifications": […]}`.
    ArrivalNoticeNotifications,
    /// A terminal's answer to a subscription: `{"checkedAt": …, "containers": […]}`.
    TerminalAvailability,
    /// A carrier's events pushed to a subscription (DCSA 2.2): `[event, …]`.
    Events,
    /// A carrier's events pushed as DCSA 3.0 does: `{"events": […]}`.
    EventsV3,
}

/// What the caller of a push presented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential<'a> {
    /// `Authorization: Bearer <token>`.
    Bearer(&'a str),
    /// DCSA 2.2's `Subscription-ID` and `Notification-Signature: sha256=<hex>`.
    Signed {
        /// The subscription.
        subscription: &'a str,
        /// The signature of the raw body.
        signature: &'a str,
    },
}

/// What the receiver made of a push.
#[derive(Debug, Clone, PartialEq)]
pub enum CallbackReply {
    /// Read (and what it changed committed): the status and the standard's answer.
    Answered {
        /// 200, or 400 when nothing in the push could be read.
        status: u16,
        /// The `feedbackElements` document.
        body: Value,
    },
    /// Taken (204, no body).
    Accepted,
    /// Not read, and why (400).
    Refused(String),
    /// The token is not the party's.
    Unauthorized,
    /// The database could not take it now; the line should push again.
    Unavailable,
}

/// Receives a line's pushes; the binary wires in the workers' receiver.
#[async_trait::async_trait]
pub trait CarrierCallbacks: Send + Sync + fmt::Debug {
    /// Takes `body`, pushed as `kind` for `party` (a line's SCAC, a terminal's code) by a
    /// caller presenting `credential`.
    async fn receive(
        &self,
        kind: Callback,
        party: &str,
        credential: Credential<'_>,
        body: Vec<u8>,
    ) -> CallbackReply;
}
