//! Applying an observation to a tracking request: read the request and what is tracked of
//! it, let the domain decide ([`tracking::decide`]), freeze the records its events carry,
//! commit all of it in one transaction, and wake the dispatcher when events were recorded.
//!
//! The one conflict rule lives here: a commit refused because the request changed since it
//! was read (a lookup crossing a client's stop, a push crossing a lookup) is decided again
//! on what is stored then, up to [`CONFLICT_RETRIES`] decisions in all.

use std::borrow::Cow;
use std::sync::Arc;

use tidemark_domain::custom_field::staged_values;
use tidemark_domain::lifecycle::Policies;
use tidemark_domain::tracking::{self, Cause, Change, LookupAnswer, Prediction, TerminalAnswer};
use tidemark_domain::{
    AccountId, CarrierMatrix, ClaimedJob, Clock, FailedReason, JobKind, NewJob, RequestStatus,
    Shipment, Tracked, TrackingRequest, TrackingRequestId,
};
use tidemark_store::{CommitOutcome, Store, StoreError};
use tidemark_wire::EventRecords;
use tokio::sync::Notify;

/// How many times one observation is decided, at most, while the request keeps changing
/// under it.
pub const CONFLICT_RETRIES: usize = 3;

/// A tracking request as stored, with what is tracked of it (`None` before its first
/// successful lookup).
#[derive(Debug, Clone)]
pub struct Current {
    /// The request.
    pub request: TrackingRequest,
    /// Its shipment, containers and events.
    pub tracked: Option<Tracked>,
}

/// What was observed of a request, to be decided on: borrowed where the caller holds it
/// across decisions (a lookup's answer is not copied for each).
#[derive(Debug, Clone)]
pub enum Observation<'a> {
    /// A carrier's answer to a lookup.
    Lookup(&'a LookupAnswer),
    /// Terminals' answers (checked, pushed, or read from Arrival Notices).
    Terminal(Cow<'a, TerminalAnswer>),
    /// Tidemark's own arrival estimate, from the vessel's positions.
    Predicted(Prediction),
    /// The client stops tracking.
    Stop,
    /// The client resumes tracking.
    Resume,
}

impl Observation<'_> {
    fn cause(&self) -> Cause<'_> {
        match self {
            Self::Lookup(answer) => Cause::Lookup(answer),
            Self::Terminal(answer) => Cause::Terminal(answer.as_ref()),
            Self::Predicted(prediction) => Cause::Predicted(*prediction),
            Self::Stop => Cause::Stop,
            Self::Resume => Cause::Resume,
        }
    }
}

/// What applying an observation came to.
#[derive(Debug)]
pub enum Applied {
    /// Committed (with the claimed job finished and the next one scheduled, when a job
    /// observed it).
    Committed(Box<Change>),
    /// Nothing to write: the request is gone, or the observation concerns nothing of it,
    /// or (without a job to finish) it changes nothing.
    Nothing,
    /// The lifecycle cannot move the request this way (a stop of a failed request): its
    /// status.
    NoTransition(RequestStatus),
    /// Resuming would track what a newer open request tracks: its id, when known.
    Duplicate(Option<TrackingRequestId>),
    /// The job's lease was lost: another worker has it; nothing was written.
    LeaseLost,
    /// The request kept changing; nothing was written.
    Conflict,
}

/// The use case that changes tracking requests.
#[derive(Debug, Clone)]
pub struct Tracking {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    render: EventRecords,
    policies: Policies,
    events_recorded: Option<Arc<Notify>>,
}

impl Tracking {
    /// Changes requests in `store` as `policies` say, freezing records with the carrier
    /// names of `matrix`.
    #[must_use]
    pub fn new(
        store: Arc<dyn Store>,
        matrix: Arc<CarrierMatrix>,
        clock: Arc<dyn Clock>,
        policies: impl Into<Policies>,
    ) -> Self {
        Self {
            store,
            clock,
            render: EventRecords::new(matrix),
            policies: policies.into(),
            events_recorded: None,
        }
    }

    /// Freezes notifications' records with links under `base` (the configured public
    /// URL), when given.
    #[must_use]
    pub fn links_under(mut self, base: Option<&str>) -> Self {
        self.render = self.render.under(base);
        self
    }

    /// Rings `bell` after every commit that recorded events, so a dispatcher in this
    /// process sends their notifications at once instead of at its next poll.
    #[must_use]
    pub fn ring_on_events(mut self, bell: Arc<Notify>) -> Self {
        self.events_recorded = Some(bell);
        self
    }

    /// The lifecycle's policies it decides by.
    #[must_use]
    pub const fn policies(&self) -> &Policies {
        &self.policies
    }

    /// Request `id` as stored, with what is tracked of it; `None` when there is no such
    /// request.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn current(&self, id: TrackingRequestId) -> Result<Option<Current>, StoreError> {
        let Some(request) = self.store.tracking_request_for_work(id).await? else {
            return Ok(None);
        };
        let tracked = self.store.tracked(id).await?;
        Ok(Some(Current { request, tracked }))
    }

    /// Stops or resumes (`observation`) the tracking of `account`'s `shipment`, as any
    /// other observation is applied: decided by the domain, committed in one transaction.
    ///
    /// # Errors
    /// `Missing` when the account has no such shipment, `InvalidState` when the request's
    /// status allows no such change, `Duplicate` when a newer open request tracks the same
    /// number, `Conflict` when the request kept changing; the store's failure.
    pub async fn set_tracking(
        &self,
        account: AccountId,
        shipment: &Shipment,
        observation: Observation<'static>,
    ) -> Result<(), crate::Error> {
        let current = self
            .current(shipment.tracking_request_id)
            .await?
            .filter(|current| current.request.account_id == account)
            .ok_or(crate::Error::Missing("shipment"))?;
        match self
            .apply(None, current, |_| Some(observation.clone()))
            .await?
        {
            Applied::Committed(_) | Applied::Nothing => Ok(()),
            Applied::NoTransition(status) => Err(crate::Error::InvalidState(status)),
            Applied::Duplicate(existing) => Err(crate::Error::Duplicate(existing)),
            Applied::LeaseLost | Applied::Conflict => Err(crate::Error::Conflict(
                "the shipment kept changing; try again",
            )),
        }
    }

    /// Looks `shipment`'s request up again now (a client's refresh), unless its tracking
    /// is stopped.
    ///
    /// # Errors
    /// `TrackingStopped`, or the store's failure.
    pub async fn refresh(&self, shipment: &Shipment) -> Result<(), crate::Error> {
        if shipment.stopped_at.is_some() {
            return Err(crate::Error::TrackingStopped);
        }
        let job = NewJob {
            kind: JobKind::Refresh,
            key: shipment.tracking_request_id.to_string(),
            due_at: self.clock.now(),
            if_absent: false,
        };
        self.store.schedule_job(&job).await?;
        Ok(())
    }

    /// Applies what `observe` makes of the request as read (`current`, and read again
    /// after a conflict; `None`: nothing concerns it), committing under `job`'s claim
    /// when a job observed it.
    ///
    /// A lookup's answer that makes the request a duplicate of another open one fails the
    /// request instead (`duplicate`), keeping the carrier it detected.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn apply<'a>(
        &self,
        job: Option<&ClaimedJob>,
        current: Current,
        mut observe: impl FnMut(&Current) -> Option<Observation<'a>>,
    ) -> Result<Applied, StoreError> {
        let id = current.request.id;
        let mut current = Some(current);
        for _ in 0..CONFLICT_RETRIES {
            let Some(now) = current.take() else {
                return Ok(Applied::Nothing);
            };
            let Some(observation) = observe(&now) else {
                return Ok(Applied::Nothing);
            };
            match self.decide_and_commit(job, &now, &observation).await? {
                Applied::Conflict => current = self.current(id).await?,
                applied => return Ok(applied),
            }
        }
        Ok(Applied::Conflict)
    }

    async fn decide_and_commit(
        &self,
        job: Option<&ClaimedJob>,
        current: &Current,
        observation: &Observation<'_>,
    ) -> Result<Applied, StoreError> {
        let Some(change) = self.decide(current, observation.cause()).await? else {
            return Ok(match observation {
                Observation::Stop | Observation::Resume => {
                    Applied::NoTransition(current.request.status)
                }
                Observation::Lookup(_) | Observation::Terminal(_) | Observation::Predicted(_) => {
                    Applied::Nothing
                }
            });
        };
        if change.is_none() && job.is_none() {
            return Ok(Applied::Nothing);
        }
        let outcome = match self.store.commit_tracking(job, &change).await {
            Err(StoreError::Duplicate { existing_id }) => match observation {
                Observation::Lookup(answer) => {
                    // The detected carrier makes this request a duplicate of an open one.
                    let refused = Cause::Refused {
                        scac: answer.scac,
                        reason: FailedReason::Duplicate,
                    };
                    let Some(refused) = self.decide(current, refused).await? else {
                        return Ok(Applied::Nothing);
                    };
                    return self.committed(job, refused).await;
                }
                _ => return Ok(Applied::Duplicate(existing_id)),
            },
            other => other?,
        };
        Ok(self.outcome(outcome, change))
    }

    /// The change `cause` makes to `current`, its records frozen; `None` when the
    /// lifecycle has no such move.
    async fn decide(
        &self,
        current: &Current,
        cause: Cause<'_>,
    ) -> Result<Option<Change>, StoreError> {
        let prior = current.tracked.as_ref();
        let now = self.clock.now();
        let policy = self.policies.of(current.request.scac);
        let Ok(mut change) = tracking::decide(&current.request, prior, cause, now, policy) else {
            return Ok(None);
        };
        self.stage_custom_fields(prior, &mut change).await?;
        if !change.events.is_empty() {
            let customer = self.store.customer_name(&current.request).await?;
            change.freeze(prior, &self.render, customer.as_deref());
        }
        Ok(Some(change))
    }

    /// Sets the custom field values the request's create staged on the records `change`
    /// finds first: the shipment when it is new, containers it did not have.
    async fn stage_custom_fields(
        &self,
        prior: Option<&Tracked>,
        change: &mut Change,
    ) -> Result<(), StoreError> {
        let new_shipment = prior.is_none() && change.shipment.is_some();
        let new_container = change.delta.containers.iter().any(|container| {
            prior.is_none_or(|p| p.containers.iter().all(|c| c.id != container.id))
        });
        if !(new_shipment || new_container) {
            return Ok(());
        }
        let staged = self.store.staged_fields(change.request.id).await?;
        if staged.is_empty() {
            return Ok(());
        }
        let shipment = change
            .shipment
            .clone()
            .or_else(|| prior.map(|p| p.shipment.clone()));
        change.custom_fields = staged_values(
            &staged,
            prior,
            shipment.as_ref(),
            &change.delta.containers,
            change.request.updated_at,
        );
        Ok(())
    }

    async fn committed(
        &self,
        job: Option<&ClaimedJob>,
        change: Change,
    ) -> Result<Applied, StoreError> {
        let outcome = self.store.commit_tracking(job, &change).await?;
        Ok(self.outcome(outcome, change))
    }

    fn outcome(&self, outcome: CommitOutcome, change: Change) -> Applied {
        match outcome {
            CommitOutcome::Committed => {
                if !change.events.is_empty()
                    && let Some(bell) = &self.events_recorded
                {
                    bell.notify_one();
                }
                Applied::Committed(Box::new(change))
            }
            CommitOutcome::LeaseLost => Applied::LeaseLost,
            CommitOutcome::Conflict => Applied::Conflict,
        }
    }
}
