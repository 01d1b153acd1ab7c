//! A tracking change, committed: everything one lookup (or a client's stop or resume)
//! changed, decided by the domain (`tidemark_domain::tracking::decide`), written here in
//! one transaction, with the tracker's reads of what the last change left.

use async_trait::async_trait;
use tidemark_domain::tracking::Change;
use tidemark_domain::{AccountId, ClaimedJob, DomainEvent, Timestamp, Tracked, TrackingRequestId};

use crate::db::{Backend, Cost, Dialect, Query, Unit, Value};
use crate::{
    CommitOutcome, StoreError, containers, domain_events, jobs, raw_events, references, shipments,
    transport_events,
};

/// What tracking finds (shipments, containers, transport events) and the outbox of
/// domain events, written by the tracker one change per transaction.
#[async_trait]
pub trait ChangeStore: Send + Sync {
    /// The shipment a request found, with its containers and their transport events.
    async fn tracked(&self, request: TrackingRequestId) -> Result<Option<Tracked>, StoreError>;

    /// Writes everything a lookup (or a client's stop or resume) changed, in one
    /// transaction, finishing `job` when given: only if the job's lease still holds and the
    /// request did not change since it was read.
    /// [`StoreError::Duplicate`] when the request's new carrier makes it a duplicate of
    /// another open request.
    async fn commit_tracking(
        &self,
        job: Option<&ClaimedJob>,
        commit: &Change,
    ) -> Result<CommitOutcome, StoreError>;

    /// The domain events of an account, oldest first.
    async fn domain_events(&self, account: AccountId) -> Result<Vec<DomainEvent>, StoreError>;
}

/// Which statements of a change's unit decide its outcome.
struct Checks {
    /// Statements of which one affects a row exactly when the job's lease still holds.
    lease: Option<Vec<usize>>,
    /// The statement that affects a row only if the request did not change meanwhile.
    request: usize,
}

impl Checks {
    /// The outcome, from the rows each statement affected.
    fn outcome(&self, affected: &[u64]) -> CommitOutcome {
        let rows = |index: &usize| affected.get(*index).copied().unwrap_or(0);
        if self
            .lease
            .as_ref()
            .is_some_and(|steps| steps.iter().map(rows).sum::<u64>() == 0)
        {
            return CommitOutcome::LeaseLost;
        }
        if rows(&self.request) == 0 {
            return CommitOutcome::Conflict;
        }
        CommitOutcome::Committed
    }
}

/// The change's effect on its request, unless the request changed since it was read.
fn request_state(change: &Change) -> Query {
    let request = &change.request;
    Query::with(
        "UPDATE tracking_requests SET status = $2, failed_reason = $3, is_retrying = $4, \
         retry_count = CAST($5 AS INTEGER), tracked_object_id = $6, scac = $7, \
         updated_at = $8 WHERE id = $1 AND updated_at = $9",
        vec![
            request.id.as_uuid().into(),
            request.status.as_str().into(),
            request.failed_reason.map(|r| r.as_str()).into(),
            Value::from(request.is_retrying),
            Value::int(request.retry_count),
            request
                .tracked_object
                .or(change.shipment.as_ref().map(|s| s.id.as_uuid()))
                .into(),
            request.scac.map(|s| s.as_str().to_owned()).into(),
            request.updated_at.into(),
            change.request_read_at.into(),
        ],
    )
}

/// The statements of `change`, finishing `job` when given.
///
/// Rows are locked in one order by every change: the shared reference rows (sorted), the
/// shipment, the request, what hangs off the request, and the request's jobs last. So two
/// changes of one request (a lookup and a terminal check, say) meet at the request's row
/// and the second waits for the first, instead of each holding a row the other needs.
fn plan(dialect: &Dialect, job: Option<&ClaimedJob>, change: &Change) -> (Unit, Checks) {
    let mut unit = Unit::default();
    let now: Timestamp = change.request.updated_at;
    // The reference data first: rows other lookups share, touched in code order.
    for query in references::learn(&change.delta.places, &change.delta.vessels, now) {
        unit.push(query);
    }
    if let Some(shipment) = &change.shipment {
        unit.push(shipments::upsert(shipment));
    }
    let request = unit.push(request_state(change));
    unit.duplicate_at = Some(request);
    unit.guards.push(vec![request]);
    let rows = [
        containers::upsert_all(&change.delta.containers),
        transport_events::insert_all(&change.delta.transport_events),
        raw_events::upsert_all(&change.delta.raw_events, now),
        domain_events::record_all(dialect, &change.events),
        crate::custom_fields::staged::set_new(&change.custom_fields),
    ];
    for query in rows.into_iter().flatten() {
        unit.push(query);
    }
    let lease = job.map(|job| jobs::guard_lease(&mut unit, job));
    for next in change
        .next
        .iter()
        .chain(&change.terminal_check)
        .chain(&change.prediction)
    {
        unit.push(jobs::schedule(dialect, next, now));
    }
    (unit, Checks { lease, request })
}

#[async_trait]
impl<B: Backend> ChangeStore for B {
    async fn tracked(&self, request: TrackingRequestId) -> Result<Option<Tracked>, StoreError> {
        let Some(row) = self.fetch_one(&shipments::of_request(request)).await? else {
            return Ok(None);
        };
        let shipment = shipments::parse_row(&row)?;
        let mut found = self
            .read(
                &[
                    containers::of_shipment(shipment.id),
                    transport_events::of_shipment(shipment.id),
                    raw_events::of_shipment(shipment.id),
                ],
                Cost::Point,
            )
            .await?
            .into_iter();
        let containers = containers::parse_rows(found.next().unwrap_or_default())?;
        let events = transport_events::parse_rows(found.next().unwrap_or_default())?;
        let mut raw_events = Vec::new();
        for row in found.next().unwrap_or_default() {
            raw_events.extend(raw_events::events(&row)?);
        }
        Ok(Some(Tracked {
            shipment,
            containers,
            events,
            raw_events,
        }))
    }

    async fn commit_tracking(
        &self,
        job: Option<&ClaimedJob>,
        commit: &Change,
    ) -> Result<CommitOutcome, StoreError> {
        let (unit, checks) = plan(self.dialect(), job, commit);
        let written = self.write(unit).await?;
        Ok(checks.outcome(&written.affected()))
    }

    async fn domain_events(&self, account: AccountId) -> Result<Vec<DomainEvent>, StoreError> {
        let rows = self.fetch(&domain_events::of_account(account)).await?;
        domain_events::parse_rows(self, &rows).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_lease_wins_over_a_conflict_and_both_stop_the_commit() {
        let commit = Checks {
            lease: Some(vec![0, 1]),
            request: 2,
        };
        assert_eq!(commit.outcome(&[1, 0, 1]), CommitOutcome::Committed);
        assert_eq!(commit.outcome(&[0, 1, 1]), CommitOutcome::Committed);
        assert_eq!(commit.outcome(&[0, 0, 1]), CommitOutcome::LeaseLost);
        assert_eq!(commit.outcome(&[0, 0, 0]), CommitOutcome::LeaseLost);
        assert_eq!(commit.outcome(&[1, 0, 0]), CommitOutcome::Conflict);
    }
}
