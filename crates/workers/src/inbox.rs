//! What the lines push: Arrival Notices and the notifications that one is out (DCSA AN
//! 1.0.1, subscriber side). The [`Inbox`] authenticates the line, reads the push
//! ([`tidemark_carriers::arrival_notice::push`]) and, before it answers, commits what it
//! changes: a notice is applied to every open request tracking its bill from the pushing
//! source, decided by the domain like a terminal check's answer but outside the checks'
//! cadence; a notification queues an `arrival_notice` job per request, which reads the
//! notice from the line's publisher (the tracker's [`notice`](crate::tracker) job).

use std::sync::Arc;

use tidemark_carriers::arrival_notice::Notices;
use tidemark_carriers::arrival_notice::push::{self, Feedback, Read, Severity};
use tidemark_carriers::registry::Registry;
use tidemark_domain::lifecycle::Policy;
use tidemark_domain::tracking::{self, Cause, TerminalAnswer};
use tidemark_domain::{
    CarrierMatrix, ClaimedJob, Clock, JobKind, NewJob, Scac, TrackingRequestId, TrackingSource,
};
use tidemark_store::{CommitOutcome, Store, StoreError};
use tidemark_wire::EventRecords;
use tokio::sync::Notify;

/// What a line pushed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Push {
    /// Notices, whole.
    Notices,
    /// Word that notices are out.
    Notifications,
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
    /// The caller is not the line, nor the simulator playing it.
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
}

/// How often a notice is decided again when a lookup commits meanwhile.
const CONFLICT_RETRIES: usize = 3;

impl Inbox {
    /// An inbox over `store`, authenticating lines with `carriers`' callback tokens.
    #[must_use]
    pub fn new(
        store: Arc<dyn Store>,
        carriers: Arc<Registry>,
        matrix: Arc<CarrierMatrix>,
        clock: Arc<dyn Clock>,
        policy: Policy,
    ) -> Self {
        Self {
            store,
            carriers,
            clock,
            render: EventRecords::new(matrix),
            policy,
            events_recorded: None,
        }
    }

    /// Rings `bell` after a commit that recorded events.
    #[must_use]
    pub fn ring_on_events(mut self, bell: Arc<Notify>) -> Self {
        self.events_recorded = Some(bell);
        self
    }

    /// Takes `body`, pushed as `push` for line `scac` by a caller presenting `token`.
    pub async fn receive(
        &self,
        push: Push,
        scac: &str,
        token: Option<&str>,
        body: &[u8],
    ) -> Receipt {
        let Ok(scac) = Scac::parse(scac) else {
            return Receipt::Unauthorized;
        };
        let Some(source) =
            token.and_then(|token| self.carriers.arrival_notices().authorize(scac, token))
        else {
            return Receipt::Unauthorized;
        };
        let source = TrackingSource::from(source);
        let taken = match push {
            Push::Notices => match push::read_notices(body) {
                Ok(read) => self.notices(scac, source, read).await,
                Err(problem) => return refused(problem),
            },
            Push::Notifications => match push::read_notifications(body) {
                Ok(read) => self.notifications(scac, source, read).await,
                Err(problem) => return refused(problem),
            },
        };
        match taken {
            Ok(receipt) => receipt,
            Err(error) => {
                tracing::error!(carrier = %scac, %error, "a push could not be stored");
                Receipt::Unavailable
            }
        }
    }

    async fn notices(
        &self,
        scac: Scac,
        source: TrackingSource,
        read: Read<push::PushedNotice>,
    ) -> Result<Receipt, StoreError> {
        if read.items.is_empty() && !read.feedback.is_empty() {
            return Ok(answered(400, &read.feedback));
        }
        let mut feedback = read.feedback;
        for (path, notice) in read.items {
            let requests = self
                .store
                .open_requests_of_bill(scac, &notice.bill, source)
                .await?;
            let mut applied = 0;
            for id in &requests {
                if self.apply(None, *id, &notice.containers).await?
                    == Some(CommitOutcome::Committed)
                {
                    applied += 1;
                }
            }
            tracing::info!(carrier = %scac, requests = requests.len(), applied, "arrival notice pushed");
            feedback.push(Feedback::at(
                Severity::Info,
                &path,
                taken(requests.len(), applied),
            ));
        }
        Ok(answered(200, &feedback))
    }

    async fn notifications(
        &self,
        scac: Scac,
        source: TrackingSource,
        read: Read<push::Notification>,
    ) -> Result<Receipt, StoreError> {
        if read.items.is_empty() && !read.feedback.is_empty() {
            return Ok(answered(400, &read.feedback));
        }
        let mut feedback = read.feedback;
        let now = self.clock.now();
        for (path, notification) in read.items {
            let requests = self
                .store
                .open_requests_of_bill(scac, &notification.bill, source)
                .await?;
            for id in &requests {
                let job = NewJob {
                    kind: JobKind::ArrivalNotice,
                    key: id.to_string(),
                    due_at: now,
                    if_absent: false,
                };
                self.store.schedule_job(&job).await?;
            }
            tracing::info!(carrier = %scac, requests = requests.len(), "arrival notice notification");
            let message = if requests.is_empty() {
                "no open tracking request of this transport document".to_owned()
            } else {
                format!(
                    "the notice will be read for {} tracked shipment(s)",
                    requests.len()
                )
            };
            feedback.push(Feedback::at(Severity::Info, &path, message));
        }
        Ok(answered(200, &feedback))
    }

    /// Decides what the line's `notices` change in request `id` and commits it (under
    /// `job`'s claim, when a job read them); `None` when there is nothing to apply them
    /// to (the request is gone, closed or not tracked yet). A lookup committed meanwhile
    /// makes it decide again with what is stored then.
    pub(crate) async fn apply(
        &self,
        job: Option<&ClaimedJob>,
        id: TrackingRequestId,
        notices: &Notices,
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
            let answer = TerminalAnswer::pushed(&prior, notices);
            let now = self.clock.now();
            let cause = Cause::Terminal(&answer);
            let Ok(mut change) = tracking::decide(&request, Some(&prior), cause, now, &self.policy)
            else {
                return Ok(None);
            };
            change.freeze(Some(&prior), &self.render);
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

fn taken(requests: usize, applied: usize) -> String {
    if requests == 0 {
        "no open tracking request of this transport document; the notice was not kept".to_owned()
    } else {
        format!("applied to {applied} of {requests} tracked shipment(s)")
    }
}

fn answered(status: u16, feedback: &[Feedback]) -> Receipt {
    Receipt::Answered {
        status,
        body: push::answer(feedback),
    }
}

fn refused(problem: Feedback) -> Receipt {
    answered(400, &[problem])
}
