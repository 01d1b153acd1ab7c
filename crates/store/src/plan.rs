//! Writes planned once for both backends.
//!
//! A lookup's commit is many statements (the request, the shipment, containers, events,
//! reference data, the job). They are planned here as SQL with backend-neutral values;
//! each backend binds the values in its own column types and runs the plan in one
//! transaction, then [`Plan::outcome`] decides from the affected row counts whether to
//! commit.

use tidemark_domain::{
    ClaimedJob, Container, DomainEvent, NewJob, Place, ReferenceKind, Shipment, Timestamp,
    TransportEvent, VesselRef, shipment::locode,
};
use uuid::Uuid;

use crate::rows::retry_count_column;
use tidemark_domain::tracking::Change;

use crate::{CommitOutcome, sql};

/// A value to bind, in neutral form.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Text(Option<String>),
    Time(Option<Timestamp>),
    Id(Option<Uuid>),
    /// A JSON document, serialized.
    Json(String),
    Int(Option<i64>),
    Bool(bool),
}

impl From<&str> for Value {
    fn from(value: &str) -> Self {
        Self::Text(Some(value.to_owned()))
    }
}

impl From<String> for Value {
    fn from(value: String) -> Self {
        Self::Text(Some(value))
    }
}

impl From<Option<String>> for Value {
    fn from(value: Option<String>) -> Self {
        Self::Text(value)
    }
}

impl From<Option<&str>> for Value {
    fn from(value: Option<&str>) -> Self {
        Self::Text(value.map(str::to_owned))
    }
}

impl From<Timestamp> for Value {
    fn from(value: Timestamp) -> Self {
        Self::Time(Some(value))
    }
}

impl From<Option<Timestamp>> for Value {
    fn from(value: Option<Timestamp>) -> Self {
        Self::Time(value)
    }
}

impl From<Uuid> for Value {
    fn from(value: Uuid) -> Self {
        Self::Id(Some(value))
    }
}

impl From<Option<Uuid>> for Value {
    fn from(value: Option<Uuid>) -> Self {
        Self::Id(value)
    }
}

fn json(value: &impl serde::Serialize) -> Value {
    // Serializing plain data (strings, timestamps, maps of strings) cannot fail.
    Value::Json(serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned()))
}

/// The statements whose SQL differs between backends.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dialect {
    /// The job upsert (`$1` id, `$2` kind, `$3` key, `$4` due, `$5` now).
    pub(crate) schedule: &'static str,
    /// The fan-out of a domain event to the webhooks that want it (`$1` the event's id,
    /// `$2` now): one pending notification each, only if the event was recorded (a
    /// duplicate event, skipped by its dedupe key, fans out nothing).
    pub(crate) fan_out: &'static str,
}

/// One statement and its values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Step {
    pub(crate) sql: &'static str,
    pub(crate) values: Vec<Value>,
}

/// Statements to run in one transaction, and the checks that decide whether to commit.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Plan {
    pub(crate) steps: Vec<Step>,
    /// Steps whose affected rows, summed, must be at least 1 for the lease to hold.
    lease_steps: Vec<usize>,
    /// The step that must affect a row for the request not to have changed meanwhile.
    request_step: Option<usize>,
}

impl Plan {
    fn push(&mut self, sql: &'static str, values: Vec<Value>) -> usize {
        self.steps.push(Step { sql, values });
        self.steps.len() - 1
    }

    /// Whether step `index` writes the request (a unique violation there means the request
    /// became a duplicate).
    pub(crate) fn is_request_step(&self, index: usize) -> bool {
        self.request_step == Some(index)
    }

    /// Whether to commit, from the rows each step affected.
    pub(crate) fn outcome(&self, affected: &[u64]) -> CommitOutcome {
        let rows = |index: &usize| affected.get(*index).copied().unwrap_or(0);
        if !self.lease_steps.is_empty() && self.lease_steps.iter().map(rows).sum::<u64>() == 0 {
            return CommitOutcome::LeaseLost;
        }
        if self.request_step.is_some_and(|step| rows(&step) == 0) {
            return CommitOutcome::Conflict;
        }
        CommitOutcome::Committed
    }

    /// Finishes the claimed job: removes it, or releases it when it was scheduled again
    /// while held. One of the two affects a row exactly when the lease still holds.
    fn finish_job(&mut self, job: &ClaimedJob) {
        let id = job.id.as_uuid();
        let token = job.lease_token;
        let delete = self.push(
            sql::COMPLETE_JOB,
            vec![id.into(), token.into(), Value::Int(Some(job.revision))],
        );
        let release = self.push(sql::RELEASE_JOB, vec![id.into(), token.into()]);
        self.lease_steps.extend([delete, release]);
    }

    fn schedule(&mut self, job: &NewJob, now: Timestamp, schedule_sql: &'static str) {
        self.push(
            schedule_sql,
            vec![
                Uuid::now_v7().into(),
                job.kind.as_str().into(),
                job.key.clone().into(),
                job.due_at.into(),
                now.into(),
            ],
        );
    }

    fn shipment(&mut self, shipment: &Shipment) {
        let route = &shipment.route;
        self.push(
            sql::UPSERT_SHIPMENT,
            vec![
                shipment.id.as_uuid().into(),
                shipment.account_id.as_uuid().into(),
                shipment.tracking_request_id.as_uuid().into(),
                shipment.bill_of_lading_number.clone().into(),
                shipment.normalized_number.clone().into(),
                shipment.scac.as_str().into(),
                json(&shipment.ref_numbers),
                json(&shipment.tags),
                route
                    .port_of_lading
                    .as_ref()
                    .map(|p| p.locode.clone())
                    .into(),
                route
                    .port_of_discharge
                    .as_ref()
                    .map(|p| p.locode.clone())
                    .into(),
                json(route),
                shipment.source.as_str().into(),
                shipment.last_attempted_at.into(),
                shipment.last_succeeded_at.into(),
                shipment.last_changed_at.into(),
                shipment.stopped_at.into(),
                shipment.stopped_reason.map(|r| r.as_str()).into(),
                shipment.created_at.into(),
                shipment.updated_at.into(),
            ],
        );
    }

    fn container(&mut self, container: &Container) {
        self.push(
            sql::UPSERT_CONTAINER,
            vec![
                container.id.as_uuid().into(),
                container.account_id.as_uuid().into(),
                container.shipment_id.as_uuid().into(),
                container.number.clone().into(),
                container.current_status.as_str().into(),
                json(&container.ref_numbers),
                json(&container.details),
                container.created_at.into(),
                container.updated_at.into(),
            ],
        );
    }

    fn transport_event(&mut self, event: &TransportEvent) {
        let place = event.location.as_ref();
        self.push(
            sql::INSERT_TRANSPORT_EVENT,
            vec![
                event.id.as_uuid().into(),
                event.account_id.as_uuid().into(),
                event.shipment_id.as_uuid().into(),
                event.container_id.as_uuid().into(),
                event.kind.name().into(),
                event.timestamp.into(),
                locode(place).into(),
                place.and_then(|p| p.name.clone()).into(),
                place.and_then(|p| p.facility.clone()).into(),
                event.vessel.as_ref().map(|v| v.imo.clone()).into(),
                event.vessel.as_ref().and_then(|v| v.name.clone()).into(),
                event.voyage_number.clone().into(),
                event.created_at.into(),
            ],
        );
    }

    fn domain_event(&mut self, event: &DomainEvent, fan_out_sql: &'static str) {
        self.push(
            sql::INSERT_DOMAIN_EVENT,
            vec![
                event.id.as_uuid().into(),
                event.account_id.as_uuid().into(),
                event.name.name().into(),
                event.subject.kind().into(),
                event.subject.id().into(),
                event.shipment_id.map(|id| id.as_uuid()).into(),
                json(&event.detail),
                event.dedupe_key.clone().into(),
                json(&event.included),
                event.created_at.into(),
            ],
        );
        self.push(
            fan_out_sql,
            vec![event.id.as_uuid().into(), event.created_at.into()],
        );
    }

    fn place(&mut self, place: &Place, now: Timestamp) {
        self.push(
            sql::UPSERT_PORT,
            vec![
                ReferenceKind::Port.id(&place.locode).into(),
                place.locode.clone().into(),
                place.name.clone().into(),
                now.into(),
            ],
        );
        if let Some(code) = &place.facility {
            self.push(
                sql::UPSERT_TERMINAL,
                vec![
                    ReferenceKind::Terminal.id(code).into(),
                    code.clone().into(),
                    place.locode.clone().into(),
                    now.into(),
                ],
            );
        }
    }

    fn vessel(&mut self, vessel: &VesselRef, now: Timestamp) {
        self.push(
            sql::UPSERT_VESSEL,
            vec![
                ReferenceKind::Vessel.id(&vessel.imo).into(),
                vessel.imo.clone().into(),
                vessel.name.clone().into(),
                now.into(),
            ],
        );
    }

    /// The plan of a lookup's commit, finishing `job` when given, in the backend's
    /// `dialect`.
    pub(crate) fn lookup(job: Option<&ClaimedJob>, commit: &Change, dialect: Dialect) -> Self {
        let mut plan = Self::default();
        let request = &commit.request;
        if let Some(job) = job {
            plan.finish_job(job);
        }
        let now = request.updated_at;
        // The reference data first: rows other lookups share, touched in code order.
        let mut places: Vec<&Place> = commit.places.iter().collect();
        places.sort_by(|a, b| a.locode.cmp(&b.locode));
        for place in places {
            plan.place(place, now);
        }
        let mut vessels: Vec<&VesselRef> = commit.vessels.iter().collect();
        vessels.sort_by(|a, b| a.imo.cmp(&b.imo));
        for vessel in vessels {
            plan.vessel(vessel, now);
        }
        if let Some(shipment) = &commit.shipment {
            plan.shipment(shipment);
        }
        let step = plan.push(
            sql::COMMIT_TRACKING_REQUEST_STATE,
            vec![
                request.id.as_uuid().into(),
                request.status.as_str().into(),
                request.failed_reason.map(|r| r.as_str()).into(),
                Value::Bool(request.is_retrying),
                Value::Int(retry_count_column(request)),
                request
                    .tracked_object
                    .or(commit.shipment.as_ref().map(|s| s.id.as_uuid()))
                    .into(),
                request.scac.map(|s| s.as_str().to_owned()).into(),
                request.updated_at.into(),
                commit.request_read_at.into(),
            ],
        );
        plan.request_step = Some(step);
        for container in &commit.containers {
            plan.container(container);
        }
        for event in &commit.transport_events {
            plan.transport_event(event);
        }
        for changed in &commit.raw_events {
            plan.push(
                crate::raw_events::UPSERT,
                crate::raw_events::upsert_values(changed, now),
            );
        }
        for event in &commit.events {
            plan.domain_event(event, dialect.fan_out);
        }
        if let Some(next) = &commit.next {
            plan.schedule(next, now, dialect.schedule);
        }
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_lease_wins_over_a_conflict_and_both_stop_the_commit() {
        let mut plan = Plan::default();
        let delete = plan.push("d", Vec::new());
        let release = plan.push("r", Vec::new());
        let request = plan.push("u", Vec::new());
        plan.lease_steps = vec![delete, release];
        plan.request_step = Some(request);
        assert_eq!(plan.outcome(&[1, 0, 1]), CommitOutcome::Committed);
        assert_eq!(plan.outcome(&[0, 1, 1]), CommitOutcome::Committed);
        assert_eq!(plan.outcome(&[0, 0, 1]), CommitOutcome::LeaseLost);
        assert_eq!(plan.outcome(&[0, 0, 0]), CommitOutcome::LeaseLost);
        assert_eq!(plan.outcome(&[1, 0, 0]), CommitOutcome::Conflict);
    }
}
