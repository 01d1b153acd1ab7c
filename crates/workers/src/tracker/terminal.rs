//! Terminal checks: a tracked shipment's containers asked at their terminals of discharge,
//! and its line's latest Arrival Notice read (`terminal_check` jobs, keyed by the
//! request's id), the domain deciding what the answers change, one commit. A source that
//! fails changes nothing: the check is taken again later, and the tracking request is not
//! touched.

use std::collections::BTreeMap;

use tidemark_carriers::arrival_notice::Notices;
use tidemark_carriers::http::Failure;
use tidemark_carriers::registry::Source;
use tidemark_domain::terminal::{TerminalCode, TerminalReport};
use tidemark_domain::tracking::{self, Cause, TerminalAnswer};
use tidemark_domain::{
    ClaimedJob, ContainerId, Timestamp, Tracked, TrackingRequest, TrackingRequestId,
};
use tidemark_store::CommitOutcome;

use super::Tracker;
use crate::WorkerError;

/// What the terminals and the line said of one shipment's containers.
#[derive(Debug, Default)]
struct Asked {
    /// The terminals' reports of the boxes they know.
    reports: Vec<(String, TerminalReport)>,
    /// The line's latest Arrival Notice, per box.
    notices: Notices,
    /// The last failure, of a terminal that did not.
    failure: Option<Failure>,
    /// Whether any terminal, or the line's notices, could be asked at all.
    reachable: bool,
    /// Whether any container was due a check.
    due: bool,
    /// The boxes a terminal took a subscription for, and until when it pushes.
    subscribed: Vec<(ContainerId, Timestamp)>,
}

impl Tracker {
    /// The open request a job is keyed by and what it tracks; `None`, with the job
    /// completed, when it is gone, failed or stopped since the job was scheduled, or
    /// tracks nothing yet.
    pub(super) async fn tracked_of(
        &self,
        job: &ClaimedJob,
    ) -> Result<Option<(TrackingRequest, Tracked)>, WorkerError> {
        let request = match TrackingRequestId::parse(&job.key) {
            Some(id) => self.store.tracking_request_for_work(id).await?,
            None => None,
        };
        let prior = match &request {
            Some(request) if request.status.is_open() => self.store.tracked(request.id).await?,
            _ => None,
        };
        match (request, prior) {
            (Some(request), Some(prior)) => Ok(Some((request, prior))),
            _ => {
                self.store.complete_job(job).await?;
                Ok(None)
            }
        }
    }

    /// Works a `terminal_check` job.
    pub(super) async fn check_terminals(&self, job: &ClaimedJob) -> Result<(), WorkerError> {
        let Some((request, prior)) = self.tracked_of(job).await? else {
            return Ok(());
        };
        let now = self.clock.now();
        let mut asked = self.ask_terminals(&prior, now).await;
        let policy = &self.settings.policy;
        if !asked.reachable {
            // None is due a check yet (the vessel's estimate moved later): check when the
            // window opens. Or no terminal of theirs is reachable from here: done, until a
            // refresh schedules a check again.
            match tracking::next_terminal_check(&prior, now, policy).filter(|_| !asked.due) {
                Some(at) => self.store.reschedule_job(job, at).await?,
                None => self.store.complete_job(job).await?,
            };
            return Ok(());
        }
        let backoff = asked.failure.as_ref().map(|failure| {
            let (retry_after, refused) = match failure {
                Failure::Temporary(reason) => (reason.retry_after(), false),
                Failure::Forbidden => (None, true),
            };
            tracking::terminal_retry(now, retry_after, refused, policy)
        });
        if asked.reports.is_empty()
            && asked.notices.is_empty()
            && let Some(at) = backoff
        {
            self.store.reschedule_job(job, at).await?;
            return Ok(());
        }
        let answer = TerminalAnswer {
            backoff,
            subscribed: std::mem::take(&mut asked.subscribed),
            ..TerminalAnswer::of(&prior, &asked.notices, &asked.reports)
        };
        let Ok(mut change) = tracking::decide(
            &request,
            Some(&prior),
            Cause::Terminal(&answer),
            now,
            policy,
        ) else {
            self.store.complete_job(job).await?;
            return Ok(());
        };
        let customer = self.store.customer_name(&request).await?;
        change.freeze(Some(&prior), &self.render, customer.as_deref());
        let recorded = !change.events.is_empty();
        match self.store.commit_tracking(Some(job), &change).await? {
            CommitOutcome::Committed => {
                if recorded && let Some(bell) = &self.events_recorded {
                    bell.notify_one();
                }
            }
            CommitOutcome::LeaseLost => {
                tracing::warn!(request = %request.id, "lost the terminal check's lease");
            }
            CommitOutcome::Conflict => {
                // A lookup committed meanwhile: check again with what is stored now.
                self.store.reschedule_job(job, now).await?;
            }
        }
        Ok(())
    }

    /// Asks each terminal about the containers of `tracked` due a check at `now`, grouped
    /// by terminal; a container of a real carrier is asked only at a configured terminal.
    async fn ask_terminals(&self, tracked: &Tracked, now: Timestamp) -> Asked {
        let mut asked = Asked::default();
        let mut by_terminal: BTreeMap<TerminalCode, Vec<String>> = BTreeMap::new();
        for id in tracking::terminal_checks(tracked, now, &self.settings.policy) {
            asked.due = true;
            let Some(container) = tracked.containers.iter().find(|c| c.id == id) else {
                continue;
            };
            if let Some(code) = container.terminal_code() {
                by_terminal
                    .entry(code)
                    .or_default()
                    .push(container.number.clone());
            }
        }
        let source = Source::from(tracked.shipment.source);
        let renew: Vec<String> =
            tracking::terminal_subscriptions(tracked, now, &self.settings.policy)
                .into_iter()
                .filter_map(|id| tracked.containers.iter().find(|c| c.id == id))
                .map(|c| c.number.clone())
                .collect();
        for (code, numbers) in by_terminal {
            let Some(connector) = self.carriers.terminals().connector(&code, source) else {
                checked(&code, "not_configured");
                continue;
            };
            asked.reachable = true;
            let started = std::time::Instant::now();
            let answer = connector.check(&numbers).await;
            let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            match answer {
                Ok(reports) => {
                    checked(&code, "answered");
                    tracing::info!(terminal = %code, containers = numbers.len(), duration_ms, "terminal check");
                    let known: Vec<(String, TerminalReport)> = reports
                        .into_iter()
                        .filter_map(|(number, report)| Some((number, report?)))
                        .collect();
                    let wanted: Vec<String> = known
                        .iter()
                        .filter(|(number, _)| renew.contains(number))
                        .map(|(number, _)| number.clone())
                        .collect();
                    asked.reports.extend(known);
                    self.subscribe(tracked, &code, source, &wanted, &mut asked)
                        .await;
                }
                Err(failure) => {
                    checked(&code, "failed");
                    tracing::warn!(terminal = %code, containers = numbers.len(), duration_ms, %failure, "terminal check failed");
                    asked.failure = Some(failure);
                }
            }
        }
        if asked.due {
            self.ask_line(tracked, source, &mut asked).await;
        }
        asked
    }

    /// Asks terminal `code` to push its answers of `numbers` (boxes of `tracked` it knows,
    /// whose subscription is missing or ending), when it pushes and this Tidemark says
    /// where it is reached. A refusal only leaves the boxes polled.
    async fn subscribe(
        &self,
        tracked: &Tracked,
        code: &TerminalCode,
        source: Source,
        numbers: &[String],
        asked: &mut Asked,
    ) {
        if numbers.is_empty() {
            return;
        }
        let (Some(target), Some(connector)) = (
            self.carriers.terminals().callback(code, source),
            self.carriers.terminals().connector(code, source),
        ) else {
            return;
        };
        match connector.subscribe(numbers, &target).await {
            Ok(until) => {
                tracing::info!(terminal = %code, containers = numbers.len(), "subscribed to the terminal's pushes");
                asked.subscribed.extend(
                    tracked
                        .containers
                        .iter()
                        .filter(|c| numbers.contains(&c.number))
                        .map(|c| (c.id, until)),
                );
            }
            Err(failure) => {
                tracing::warn!(terminal = %code, %failure, "the terminal took no subscription; it is polled");
            }
        }
    }

    /// Reads the line's latest Arrival Notice of `tracked`'s bill, when its publisher is
    /// reachable from here.
    async fn ask_line(&self, tracked: &Tracked, source: Source, asked: &mut Asked) {
        let shipment = &tracked.shipment;
        let Some(connector) = self
            .carriers
            .arrival_notices()
            .connector(shipment.scac, source)
        else {
            return;
        };
        asked.reachable = true;
        match connector.notices(&shipment.bill_of_lading_number).await {
            Ok(notices) => {
                tracing::info!(carrier = %shipment.scac, containers = notices.len(), "arrival notice");
                asked.notices = notices;
            }
            Err(failure) => {
                tracing::warn!(carrier = %shipment.scac, %failure, "arrival notice failed");
                asked.failure = Some(failure);
            }
        }
    }
}

/// Counts a check of terminal `code` by its outcome (`tidemark_terminal_checks_total`).
fn checked(code: &TerminalCode, outcome: &'static str) {
    metrics::counter!(
        tidemark_wire::metrics::TERMINAL_CHECKS.name,
        "terminal" => code.as_str().to_owned(), "outcome" => outcome
    )
    .increment(1);
}
