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

use std::sync::Arc;

use tidemark_carriers::registry::Registry;
use tidemark_domain::lifecycle::Policy;
use tidemark_domain::terminal::{ContainerNotice, TerminalCode, TerminalReport};
use tidemark_domain::tracking::{self, Cause, TerminalAnswer};
use tidemark_domain::{ClaimedJob, Clock, TrackingRequestId};
use tidemark_store::{CommitOutcome, Store, StoreError};
use tidemark_wire::EventRecords;
use tokio::sync::Notify;

use crate::Deps;

/// What a line pushed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Push {
    /// Notices, whole.
    Notices,
    /// Word that notices are out.
    Notifications,
    /// A terminal's answer, pushed to a subscription.
    Availability,
    /// A carrier's events, pushed to a subscription (DCSA 2.2).
    Events,
    /// A carrier's events, pushed as DCSA 3.0 does (`{"events": […]}`).
    EventsV3,
}

/// What the caller of a push presented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presented<'a> {
    /// `Authorization: Bearer <token>`.
    Bearer(&'a str),
    /// DCSA 2.2's `Subscription-ID` and `Notification-Signature`.
    Signed {
        /// The subscription.
        subscription: &'a str,
        /// `sha256=<hex>`.
        signature: &'a str,
    },
}

/// What the inbox made of a push.
#[derive(Debug, Clone, PartialEq)]
pub enum Receipt {
    /// Read, and what it changed committed: 200, or 400 when nothing could be read; the
    /// standard's `feedbackElements` document.
    Answered {
        /// The status to answer.
        status: u16,
        /// The answer.
        body: serde_json::Value,
    },
    /// Taken (204).
    Accepted,
    /// Not read: why (a terminal's push out of the protocol).
    Refused(String),
    /// The caller is not the party, nor the simulator playing it.
    Unauthorized,
    /// The database failed; the line should push again.
    Unavailable,
}

/// Applies the lines' pushes.
#[derive(Debug)]
pub struct Inbox {
    store: Arc<dyn Store>,
    carriers: Arc<Registry>,
    clock: Arc<dyn Clock>,
    render: EventRecords,
    policy: Policy,
    events_recorded: Option<Arc<Notify>>,
    work_queued: Option<Arc<Notify>>,
}

/// How often a notice is decided again when a lookup commits meanwhile.
const CONFLICT_RETRIES: usize = 3;

impl Inbox {
    /// An inbox over `deps.store`, authenticating lines with `deps.carriers`' callback
    /// tokens.
    #[must_use]
    pub fn new(deps: Deps, policy: Policy) -> Self {
        Self {
            store: deps.store,
            carriers: deps.carriers,
            clock: deps.clock,
            render: EventRecords::new(deps.matrix),
            policy,
            events_recorded: None,
            work_queued: None,
        }
    }

    /// Rings `bell` after a commit that recorded events.
    #[must_use]
    pub fn ring_on_events(mut self, bell: Arc<Notify>) -> Self {
        self.events_recorded = Some(bell);
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

    /// Takes `body`, pushed as `push` for `party` (a line's SCAC, a terminal's code) by a
    /// caller presenting `presented`.
    pub async fn receive(
        &self,
        push: Push,
        party: &str,
        presented: Presented<'_>,
        body: &[u8],
    ) -> Receipt {
        let token = match presented {
            Presented::Bearer(token) => Some(token),
            Presented::Signed { .. } => None,
        };
        let taken = match (push, presented) {
            (
                Push::Events,
                Presented::Signed {
                    subscription,
                    signature,
                },
            ) => {
                self.take_events_push(party, subscription, signature, body)
                    .await
            }
            (Push::Events, Presented::Bearer(_)) => Ok(Receipt::Unauthorized),
            (Push::EventsV3, _) => self.take_v3_push(party, token, body).await,
            (Push::Notices | Push::Notifications, _) => {
                self.take_line_push(push, party, token, body).await
            }
            (Push::Availability, _) => self.take_terminal_push(party, token, body).await,
        };
        match taken {
            Ok(receipt) => receipt,
            Err(error) => {
                tracing::error!(party, %error, "a push could not be stored");
                Receipt::Unavailable
            }
        }
    }

    /// Decides what the line's `notices` and the `reports` of terminal `at` change in
    /// request `id` and commits it (under `job`'s claim, when a job read them); `None`
    /// when there is nothing to apply them to (the request is gone, closed or not tracked
    /// yet). A lookup committed meanwhile makes it decide again with what is stored then.
    pub(crate) async fn apply(
        &self,
        job: Option<&ClaimedJob>,
        id: TrackingRequestId,
        notices: &[(String, ContainerNotice)],
        reports: &[(String, TerminalReport)],
        at: Option<&TerminalCode>,
    ) -> Result<Option<CommitOutcome>, StoreError> {
        let mut outcome = None;
        for _ in 0..CONFLICT_RETRIES {
            let Some(request) = self.store.tracking_request_for_work(id).await? else {
                return Ok(None);
            };
            let prior = match request.status.is_open() {
                true => self.store.tracked(id).await?,
                false => None,
            };
            let Some(prior) = prior else {
                return Ok(None);
            };
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
            let answer = TerminalAnswer::pushed(&prior, notices, &reports);
            if answer.views.is_empty() {
                // Nothing it says concerns this shipment's boxes.
                return Ok(None);
            }
            let now = self.clock.now();
            let cause = Cause::Terminal(&answer);
            let Ok(mut change) = tracking::decide(&request, Some(&prior), cause, now, &self.policy)
            else {
                return Ok(None);
            };
            let customer = self.store.customer_name(&request).await?;
            change.freeze(Some(&prior), &self.render, customer.as_deref());
            let recorded = !change.events.is_empty();
            let committed = self.store.commit_tracking(job, &change).await?;
            if committed == CommitOutcome::Committed
                && recorded
                && let Some(bell) = &self.events_recorded
            {
                bell.notify_one();
            }
            outcome = Some(committed);
            if committed != CommitOutcome::Conflict {
                break;
            }
        }
        Ok(outcome)
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
