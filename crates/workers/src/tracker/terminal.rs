//! Terminal checks: a tracked shipment's containers asked at their terminals of discharge,
//! and its line's latest Arrival Notice read (`terminal_check` jobs, keyed by the
//! request's id), the domain deciding what the answers change, one commit. A source that
//! fails changes nothing: the check is taken again later, and the tracking request is not
//! touched.

use std::borrow::Cow;
use std::collections::BTreeMap;

use tidemark_app::{Current, Observation};
use tidemark_carriers::arrival_notice::Notices;
use tidemark_carriers::http::Failure;
use tidemark_carriers::registry::Source;
use tidemark_domain::terminal::{TerminalCode, TerminalReport};
use tidemark_domain::tracking::{self, TerminalAnswer};
use tidemark_domain::{ClaimedJob, ContainerId, Timestamp, Tracked};

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
    /// The open request a job is keyed by, which tracks a shipment; `None`, with the job
    /// completed, when it is gone, failed or stopped since the job was scheduled, or
    /// tracks nothing yet.
    pub(super) async fn tracked_of(
        &self,
        job: &ClaimedJob,
    ) -> Result<Option<Current>, WorkerError> {
        let Some(current) = self.open_of(job).await? else {
            return Ok(None);
        };
        if current.tracked.is_none() {
            self.store.complete_job(job).await?;
            return Ok(None);
        }
        Ok(Some(current))
    }

    /// Works a `terminal_check` job.
    pub(super) async fn check_terminals(&self, job: &ClaimedJob) -> Result<(), WorkerError> {
        let Some(current) = self.tracked_of(job).await? else {
            return Ok(());
        };
        let Some(prior) = &current.tracked else {
            return Ok(());
        };
        let now = self.clock.now();
        let mut asked = self.ask_terminals(prior, now).await;
        let policy = self.settings.policies.of(Some(prior.shipment.scac));
        if !asked.reachable {
            // None is due a check yet (the vessel's estimate moved later): check when the
            // window opens. Or no terminal of theirs is reachable from here: done, until a
            // refresh schedules a check again.
            match tracking::next_terminal_check(prior, now, policy).filter(|_| !asked.due) {
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
            ..TerminalAnswer::of(prior, &asked.notices, &asked.reports)
        };
        let id = current.request.id;
        // Only an open request's tracked boxes are at a terminal.
        let applied = self
            .tracking
            .apply(Some(job), current, |now| {
                (now.request.status.is_open() && now.tracked.is_some())
                    .then_some(Observation::Terminal(Cow::Borrowed(&answer)))
            })
            .await?;
        self.settle(job, id, applied).await?;
        Ok(())
    }

    /// Asks each terminal about the containers of `tracked` due a check at `now`, grouped
    /// by terminal; a container of a real carrier is asked only at a configured terminal.
    async fn ask_terminals(&self, tracked: &Tracked, now: Timestamp) -> Asked {
        let mut asked = Asked::default();
        let mut by_terminal: BTreeMap<TerminalCode, Vec<String>> = BTreeMap::new();
        let policy = self.settings.policies.of(Some(tracked.shipment.scac));
        for id in tracking::terminal_checks(tracked, now, policy) {
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
        let renew: Vec<String> = tracking::terminal_subscriptions(tracked, now, policy)
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
