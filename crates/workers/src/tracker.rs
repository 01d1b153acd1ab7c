//! The tracker: works lookup, refresh, terminal check, Arrival Notice and arrival
//! prediction jobs (one of each kind per tracking request at most, keyed by its id;
//! terminal checks in [`terminal`], notices in [`notice`], predictions in [`predict`]).
//!
//! A job reads the request, asks the carrier (auto-detecting the SCAC when asked to),
//! lets the domain decide what the answer changes (`domain::tracking::decide`), and commits
//! that change in one transaction that also finishes the job and schedules the next. The commit holds only while the job's lease does and the
//! request did not change meanwhile, so a worker that lost its job, or raced a client's
//! stop, writes nothing.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tidemark_app::{Applied, Current, Observation, Tracking};
use tidemark_carriers::Lookup;
use tidemark_carriers::registry::Registry;
use tidemark_domain::lifecycle::Policies;
use tidemark_domain::tracking::{Change, LookupAnswer};
use tidemark_domain::{
    CarrierMatrix, ClaimedJob, Clock, JobKind, LookupOutcome, RequestType, Scac, TemporaryReason,
    Timestamp, Tracked, TrackingRequest, TrackingRequestId, TrackingSource,
};
use tidemark_store::Store;
use tokio::sync::Notify;

use crate::Deps;
use crate::inbox::Inbox;
use crate::leases::{Held, renewal_interval};
use crate::{Worker, WorkerError};

mod counts;
mod lookup_log;
mod notice;
mod pairs;
mod predict;
mod push;
mod terminal;

/// How the tracker works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrackerSettings {
    /// How long a claimed job is held past its last renewal (renewed every third of it
    /// while worked): a worker that dies loses its jobs this long after.
    pub lease: Duration,
    /// The lifecycle's intervals and limits, the sandbox line's and the others'.
    pub policies: Policies,
}

impl Default for TrackerSettings {
    fn default() -> Self {
        Self {
            lease: Duration::from_secs(5),
            policies: Policies::default(),
        }
    }
}

/// Looks tracking requests up and keeps their shipments current.
#[derive(Debug)]
pub struct Tracker {
    store: Arc<dyn Store>,
    carriers: Arc<Registry>,
    matrix: Arc<CarrierMatrix>,
    clock: Arc<dyn Clock>,
    /// Applies what the carriers and terminals answer.
    tracking: Tracking,
    settings: TrackerSettings,
    /// The leases of the jobs in hand.
    held: Held,
    /// Applies the notices `arrival_notice` jobs read, as pushed ones are.
    inbox: Inbox,
    /// When carriers' pushes are next tended (ended, their secrets replaced).
    tend_at: std::sync::Mutex<Option<Timestamp>>,
    /// When the lists' counts are next folded.
    fold_at: std::sync::Mutex<Option<Timestamp>>,
}

impl Tracker {
    /// A tracker over `deps.store`, asking `deps.carriers`; the records of the events it
    /// records are frozen for their notifications in the wire format (`tidemark_wire`),
    /// with the carrier names of `deps.matrix`.
    #[must_use]
    pub fn new(deps: Deps, settings: TrackerSettings) -> Self {
        let inbox = Inbox::new(deps.clone(), settings.policies);
        let tracking = deps.tracking(settings.policies);
        let Deps {
            store,
            carriers,
            matrix,
            clock,
            ..
        } = deps;
        Self {
            inbox,
            store,
            carriers,
            tracking,
            matrix,
            clock,
            settings,
            held: Held::default(),
            tend_at: std::sync::Mutex::new(None),
            fold_at: std::sync::Mutex::new(None),
        }
    }

    /// Brings forward jobs queued under a policy with longer intervals than this one's (a
    /// restart with faster settings), so they apply to requests already tracked; returns
    /// how many jobs moved.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn align_schedule(&self) -> Result<u64, WorkerError> {
        let now = self.clock.now();
        let policies = &self.settings.policies;
        let refreshes = self
            .store
            .pull_in_jobs(JobKind::Refresh, now + policies.longest_refresh())
            .await?;
        let lookups = self
            .store
            .pull_in_jobs(JobKind::Lookup, now + policies.longest_lookup_wait())
            .await?;
        Ok(refreshes + lookups)
    }

    /// Rings `bell` whenever a commit records domain events (see [`Runner::wake_on`]).
    ///
    /// [`Runner::wake_on`]: crate::Runner::wake_on
    #[must_use]
    pub fn ring_on_events(mut self, bell: Arc<Notify>) -> Self {
        self.inbox = self.inbox.ring_on_events(Arc::clone(&bell));
        self.tracking = self.tracking.ring_on_events(bell);
        self
    }

    /// Asks the carrier about `request`. `outcome` is `None` when no carrier could be
    /// detected for it; `Err` says until when the carrier's quota, shared by every
    /// process, has no call left.
    async fn ask(
        &self,
        request: &TrackingRequest,
        prior: Option<&Tracked>,
    ) -> Result<Result<LookupAnswer, Timestamp>, WorkerError> {
        let Some(scac) = request.scac.or_else(|| self.detect(request)) else {
            return Ok(Ok(LookupAnswer {
                scac: None,
                source: TrackingSource::ShippingLine,
                outcome: None,
            }));
        };
        let Some((connector, source)) = self.carriers.connector(&scac) else {
            tracing::warn!(%scac, "no connector for this carrier: configure an endpoint or the sandbox");
            return Ok(Ok(LookupAnswer {
                scac: Some(scac),
                source: TrackingSource::ShippingLine,
                outcome: Some(LookupOutcome::Temporary(TemporaryReason::Unreachable(
                    "no connector configured".to_owned(),
                ))),
            }));
        };
        if let Some(quota) = self.carriers.quota(scac)
            && let Err(until) = self
                .store
                .take_quota(scac, &quota, self.clock.now())
                .await?
        {
            return Ok(Err(quota.retry_at(until, rand::random())));
        }
        let mut lookup = lookup_of(request, scac, prior);
        self.with_companions(request, scac, &mut lookup).await?;
        let started = std::time::Instant::now();
        let outcome = connector.lookup(&lookup).await;
        lookup_log::log_lookup(request, scac, &outcome, started.elapsed());
        Ok(Ok(LookupAnswer {
            scac: Some(scac),
            source: source.into(),
            outcome: Some(outcome),
        }))
    }

    /// The carrier auto-detection names for `request`, if this instance can track it.
    fn detect(&self, request: &TrackingRequest) -> Option<Scac> {
        let detected = tidemark_domain::auto_detect(
            &self.matrix,
            request.request_number.normalized(),
            request.request_type,
        )
        .ok()?
        .scac;
        // A carrier this instance cannot track is no carrier to detect (api.md §6).
        if self.carriers.coverage().source(detected).is_none() {
            tracing::info!(
                request = %request.id,
                scac = %detected,
                "auto-detection found a carrier this instance has no endpoint for"
            );
            return None;
        }
        Some(detected)
    }

    async fn handle(&self, job: &ClaimedJob) -> Result<(), WorkerError> {
        match job.kind {
            JobKind::TerminalCheck => return self.check_terminals(job).await,
            JobKind::ArrivalNotice => return self.read_notice(job).await,
            JobKind::PredictArrival => return self.predict_arrival(job).await,
            JobKind::Lookup | JobKind::Refresh => {}
        }
        let Some(current) = self.open_of(job).await? else {
            return Ok(());
        };
        let answer = match self.ask(&current.request, current.tracked.as_ref()).await? {
            Ok(answer) => answer,
            Err(until) => {
                // The carrier's quota is spent for now: the lookup waits, nothing failed.
                tracing::debug!(request = %current.request.id, %until, "carrier quota spent; the lookup waits");
                self.store.reschedule_job(job, until).await?;
                return Ok(());
            }
        };
        let id = current.request.id;
        // Should the request close meanwhile (a client stopped it), the answer is moot.
        let applied = self
            .tracking
            .apply(Some(job), current, |now| {
                now.request
                    .status
                    .is_open()
                    .then_some(Observation::Lookup(&answer))
            })
            .await?;
        if let Some(change) = self.settle(job, id, applied).await? {
            tracing::debug!(request = %id, status = %change.request.status, "tracked");
            self.subscribe_at_carrier(&change).await?;
        }
        Ok(())
    }

    /// The open request `job` is keyed by, as stored; `None`, with the job completed, when
    /// it is gone, failed or stopped since the job was scheduled.
    async fn open_of(&self, job: &ClaimedJob) -> Result<Option<Current>, WorkerError> {
        let current = match TrackingRequestId::parse(&job.key) {
            Some(id) => self.tracking.current(id).await?,
            None => {
                tracing::warn!(key = %job.key, "a tracking job with a malformed key; dropped");
                None
            }
        };
        match current {
            Some(current) if current.request.status.is_open() => Ok(Some(current)),
            _ => {
                self.store.complete_job(job).await?;
                Ok(None)
            }
        }
    }

    /// Finishes `job` by what applying its observation to request `id` came to: the
    /// change, when one was committed.
    async fn settle(
        &self,
        job: &ClaimedJob,
        id: TrackingRequestId,
        applied: Applied,
    ) -> Result<Option<Box<Change>>, WorkerError> {
        match applied {
            Applied::Committed(change) => return Ok(Some(change)),
            Applied::LeaseLost => {
                tracing::warn!(request = %id, kind = %job.kind, "lost the job's lease; another worker has it");
            }
            Applied::Conflict => {
                // The request kept changing while it was decided: the job runs again.
                self.store.reschedule_job(job, self.clock.now()).await?;
            }
            Applied::Nothing | Applied::NoTransition(_) | Applied::Duplicate(_) => {
                self.store.complete_job(job).await?;
            }
        }
        Ok(None)
    }
}

/// What the carrier is asked about `request`, with what earlier answers told.
fn lookup_of(request: &TrackingRequest, scac: Scac, prior: Option<&Tracked>) -> Lookup {
    // The sandbox line's scripted numbers (`TEST-TR-…`) are booking references to the
    // simulator, whatever the client called them: DCSA caps transport document
    // references at 20 characters, and the scripted numbers are longer.
    let kind = if scac == Scac::SANDBOX {
        RequestType::BookingNumber
    } else {
        request.request_type
    };
    let mut lookup = Lookup::new(request.request_number.normalized(), kind);
    lookup.known.containers = prior
        .map(|tracked| {
            tracked
                .containers
                .iter()
                .map(|c| c.number.clone())
                .collect()
        })
        .unwrap_or_default();
    lookup
}

#[async_trait]
impl Worker for Tracker {
    type Job = ClaimedJob;

    fn name(&self) -> &'static str {
        "tracker"
    }

    async fn claim(&self, limit: usize, now: Timestamp) -> Result<Vec<ClaimedJob>, WorkerError> {
        self.tend_pushes(now).await?;
        self.fold_counts(now).await;
        let limit = u32::try_from(limit).unwrap_or(u32::MAX);
        let mut jobs = Vec::new();
        // First lookups, then refreshes, then terminal checks, as far as there is room.
        for kind in JobKind::ALL {
            let room = limit.saturating_sub(u32::try_from(jobs.len()).unwrap_or(u32::MAX));
            if room == 0 {
                break;
            }
            jobs.extend(
                self.store
                    .claim_due(kind, room, self.settings.lease, now)
                    .await?,
            );
        }
        for job in &jobs {
            self.held.add(job.lease_token);
        }
        Ok(jobs)
    }

    async fn next_due(&self) -> Result<Option<Timestamp>, WorkerError> {
        let mut next: Option<Timestamp> = None;
        for kind in JobKind::ALL {
            if let Some(due) = self.store.next_due(kind).await? {
                next = Some(next.map_or(due, |earlier| earlier.min(due)));
            }
        }
        Ok(next)
    }

    async fn work(&self, job: ClaimedJob) {
        if let Err(error) = self.handle(&job).await {
            tracing::error!(key = %job.key, %error, "tracking job failed; it will be retried when its lease ends");
        }
        self.held.remove(job.lease_token);
    }

    fn renew_every(&self) -> Option<Duration> {
        Some(renewal_interval(self.settings.lease))
    }

    async fn renew(&self, now: Timestamp) -> Result<(), WorkerError> {
        let until = now + self.settings.lease;
        self.store.renew_job_leases(&self.held.all(), until).await?;
        Ok(())
    }
}
