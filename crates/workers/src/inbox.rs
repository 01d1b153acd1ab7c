//! What the lines and the terminals push: Arrival Notices and the notifications that one is
//! out (DCSA AN 1.0.1, subscriber side, [`line`]), and terminals' answers to a subscription
//! (the terminal protocol, [`terminal`]). The [`Inbox`] authenticates the party, reads the
//! push and, before it answers, commits what it changes: a notice is applied to every open
//! request tracking its bill from the pushing source, a terminal's report to every open
//! request tracking the box at that terminal, each decided by the domain like a terminal
//! check's answer but outside the checks' cadence ([`Inbox::apply`]); a notification
//! queues an `arrival_notice` job per request, which reads the notice from the line's
//! publisher (the tracker's `notice` job).

mod events;
mod line;
mod terminal;

use std::borrow::Cow;
use std::sync::Arc;

use tidemark_app::callbacks::{Callback, CallbackReply, CarrierCallbacks, Credential};
use tidemark_app::{Applied, Current, Observation, Tracking};
use tidemark_carriers::registry::Registry;
use tidemark_domain::lifecycle::Policies;
use tidemark_domain::terminal::{ContainerNotice, TerminalCode, TerminalReport};
use tidemark_domain::tracking::TerminalAnswer;
use tidemark_domain::{ClaimedJob, Clock, TrackingRequestId};
use tidemark_store::{Store, StoreError};
use tokio::sync::Notify;

use crate::Deps;

/// Applies the lines' pushes.
#[derive(Debug)]
pub struct Inbox {
    store: Arc<dyn Store>,
    carriers: Arc<Registry>,
    clock: Arc<dyn Clock>,
    tracking: Tracking,
    work_queued: Option<Arc<Notify>>,
}

impl Inbox {
    /// An inbox over `deps.store`, authenticating lines with `deps.carriers`' callback
    /// tokens.
    #[must_use]
    pub fn new(deps: Deps, policies: impl Into<Policies>) -> Self {
        Self {
            tracking: deps.tracking(policies.into()),
            store: deps.store,
            carriers: deps.carriers,
            clock: deps.clock,
            work_queued: None,
        }
    }

    /// Rings `bell` after a commit that recorded events.
    #[must_use]
    pub fn ring_on_events(mut self, bell: Arc<Notify>) -> Self {
        self.tracking = self.tracking.ring_on_events(bell);
        self
    }

    /// Rings `bell` after a push queued work for the tracker (a shipment to read again, a
    /// notice to fetch), so a tracker in this process starts at once.
    #[must_use]
    pub fn ring_on_work(mut self, bell: Arc<Notify>) -> Self {
        self.work_queued = Some(bell);
        self
    }

    /// Tells a tracker in this process that work was queued.
    pub(crate) fn work_queued(&self) {
        if let Some(bell) = &self.work_queued {
            bell.notify_one();
        }
    }

    /// Applies what the line's `notices` and the `reports` of terminal `at` change in
    /// request `id` (under `job`'s claim, when a job read them): nothing when there is
    /// nothing to apply them to (the request is gone, closed or not tracked yet).
    pub(crate) async fn apply(
        &self,
        job: Option<&ClaimedJob>,
        id: TrackingRequestId,
        notices: &[(String, ContainerNotice)],
        reports: &[(String, TerminalReport)],
        at: Option<&TerminalCode>,
    ) -> Result<Applied, StoreError> {
        let Some(current) = self.tracking.current(id).await? else {
            return Ok(Applied::Nothing);
        };
        let observe = |now: &Current| {
            let prior = now
                .tracked
                .as_ref()
                .filter(|_| now.request.status.is_open())?;
            // A terminal speaks only for the boxes discharged at it.
            let reports: Vec<(String, TerminalReport)> = reports
                .iter()
                .filter(|(number, _)| {
                    prior.containers.iter().any(|c| {
                        c.number == *number
                            && at.is_none_or(|code| c.terminal_code().as_ref() == Some(code))
                    })
                })
                .cloned()
                .collect();
            let answer = TerminalAnswer::pushed(prior, notices, &reports);
            // Nothing it says may concern this shipment's boxes.
            (!answer.views.is_empty()).then_some(Observation::Terminal(Cow::Owned(answer)))
        };
        self.tracking.apply(job, current, observe).await
    }
}

#[async_trait::async_trait]
impl CarrierCallbacks for Inbox {
    /// Takes `body`, pushed as `push` for `party` (a line's SCAC, a terminal's code) by a
    /// caller presenting `presented`.
    async fn receive(
        &self,
        push: Callback,
        party: &str,
        presented: Credential<'_>,
        body: Vec<u8>,
    ) -> CallbackReply {
        let body = body.as_slice();
        let token = match presented {
            Credential::Bearer(token) => Some(token),
            Credential::Signed { .. } => None,
        };
        let taken = match (push, presented) {
            (
                Callback::Events,
                Credential::Signed {
                    subscription,
                    signature,
                },
            ) => {
                self.take_events_push(party, subscription, signature, body)
                    .await
            }
            (Callback::Events, Credential::Bearer(_)) => Ok(CallbackReply::Unauthorized),
            (Callback::EventsV3, _) => self.take_v3_push(party, token, body).await,
            (Callback::ArrivalNotices | Callback::ArrivalNoticeNotifications, _) => {
                self.take_line_push(push, party, token, body).await
            }
            (Callback::TerminalAvailability, _) => {
                self.take_terminal_push(party, token, body).await
            }
        };
        match taken {
            Ok(receipt) => receipt,
            Err(error) => {
                tracing::error!(party, %error, "a push could not be stored");
                CallbackReply::Unavailable
            }
        }
    }
}

/// `party` (parsed, `None` when it does not) and the source its bearer `token` opens, or
/// `None` when the token is missing or not the party's own: the push is answered 401.
fn bearer<P, S>(
    party: Option<P>,
    token: Option<&str>,
    authorize: impl FnOnce(&P, &str) -> Option<S>,
) -> Option<(P, S)> {
    let party = party?;
    let source = authorize(&party, token?)?;
    Some((party, source))
}
