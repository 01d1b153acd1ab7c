//! The claim of due notifications, per backend: PostgreSQL's dispatchers claim at once,
//! each locking what it takes; SQLite's one writer claims alone. Both read each webhook's
//! backlog from its own due index, so a webhook at its limit is not scanned, and from
//! where the dispatcher's last claim of it ended when told (`ResumeAt`).

use std::time::Duration;

use tidemark_domain::Timestamp;
use uuid::Uuid;

use super::ResumeAt;
use crate::db::{Query, Value};

/// Opens the claim's `IN (…)` with `r (wid, due, nid)`, where each webhook's claim resumes
/// (nothing when no webhook's does).
fn resume_from(claim: &mut Query, after: &[ResumeAt]) {
    claim.push(" WHERE id IN (");
    if after.is_empty() {
        return;
    }
    claim.push("WITH r (wid, due, nid) AS (VALUES ");
    for (at, resume) in after.iter().enumerate() {
        if at > 0 {
            claim.push(", ");
        }
        claim.bind_list([
            Value::from(resume.webhook.as_uuid()),
            Value::from(resume.due_at),
            Value::from(resume.id.as_uuid()),
        ]);
    }
    claim.push(") ");
}

/// The update that leases the rows the claim's `WHERE` picks to `token`.
fn leased(token: Uuid, lease: Duration, now: Timestamp) -> Query {
    let mut claim = Query::new("UPDATE webhook_notifications SET lease_until = ");
    claim.bind(now + lease).push(", lease_token = ").bind(token);
    claim
}

/// The claim on PostgreSQL, where several dispatchers claim at once and a backlog may be
/// deep: for each active webhook with room (`held` counts its live leases, from the small
/// index of leased rows), its oldest due rows up to the room left, read from the
/// per-webhook due index and locked, skipping rows another claim holds; of them, the
/// oldest `limit`. A webhook at its limit costs one count, however deep its backlog.
pub(super) fn by_webhook(
    token: Uuid,
    (limit, per_webhook): (u32, u32),
    lease: Duration,
    now: Timestamp,
    after: &[ResumeAt],
) -> Query {
    let mut claim = leased(token, lease, now);
    resume_from(&mut claim, after);
    let (resumed, past) = if after.is_empty() {
        ("", "")
    } else {
        (
            " LEFT JOIN r ON r.wid = w.id",
            " AND (n.due_at, n.id) > (COALESCE(r.due, '-infinity'), \
             COALESCE(r.nid, '00000000-0000-0000-0000-000000000000'))",
        )
    };
    claim
        .push("SELECT c.id FROM webhooks w")
        .push(resumed)
        .push(
            " CROSS JOIN LATERAL \
             (SELECT count(*) AS held FROM webhook_notifications h WHERE h.webhook_id = w.id \
             AND h.lease_until > ",
        )
        .bind(now)
        .push(
            " AND h.delivery_status = 'pending') b CROSS JOIN LATERAL \
             (SELECT n.id, n.due_at FROM webhook_notifications n WHERE n.webhook_id = w.id \
             AND n.delivery_status = 'pending' AND n.due_at <= ",
        )
        .bind(now)
        .push(past)
        .push(" AND COALESCE(n.lease_until, n.due_at) <= ")
        .bind(now)
        .push(" ORDER BY n.due_at, n.id LIMIT GREATEST(")
        .bind(Value::Int(Some(i64::from(per_webhook))))
        .push(
            " - b.held, 0) FOR UPDATE SKIP LOCKED) c WHERE w.active ORDER BY c.due_at, c.id LIMIT ",
        )
        .bind(Value::Int(Some(i64::from(limit))))
        .push(")");
    claim
}

/// The claim on SQLite, whose one writer claims alone: for each active webhook, its
/// oldest due rows (no lease, or one that ran out) up to its limit, from the per-webhook
/// due index; of them, those within the room each webhook has left (`held` counts its live
/// leases, from the small index of leased rows), the oldest `limit`. A webhook at its limit
/// costs a few rows read, however deep its backlog.
pub(super) fn per_webhook_in_order(
    token: Uuid,
    (limit, per_webhook): (u32, u32),
    lease: Duration,
    now: Timestamp,
    after: &[ResumeAt],
) -> Query {
    let cap = Value::Int(Some(i64::from(per_webhook)));
    let mut claim = leased(token, lease, now);
    resume_from(&mut claim, after);
    let (resumed, past) = if after.is_empty() {
        ("", "")
    } else {
        (
            " LEFT JOIN r ON r.wid = w.id",
            " AND (x.due_at, x.id) > (COALESCE(r.due, ''), COALESCE(r.nid, ''))",
        )
    };
    claim
        .push(
            "SELECT p.id FROM (SELECT n.id, n.due_at, ROW_NUMBER() OVER \
             (PARTITION BY n.webhook_id ORDER BY n.due_at, n.id) + (SELECT count(*) \
             FROM webhook_notifications h WHERE h.webhook_id = n.webhook_id \
             AND h.lease_until > ",
        )
        .bind(now)
        .push(" AND h.delivery_status = 'pending') AS place FROM webhooks w")
        .push(resumed)
        .push(
            " JOIN webhook_notifications n ON n.id IN \
             (SELECT x.id FROM webhook_notifications x WHERE x.webhook_id = w.id \
             AND x.delivery_status = 'pending' AND x.due_at <= ",
        )
        .bind(now)
        .push(past)
        .push(" AND COALESCE(x.lease_until, x.due_at) <= ")
        .bind(now)
        .push(" ORDER BY x.due_at, x.id LIMIT ")
        .bind(cap.clone())
        .push(") WHERE w.active) p WHERE p.place <= ")
        .bind(cap)
        .push(" ORDER BY p.due_at, p.id LIMIT ")
        .bind(Value::Int(Some(i64::from(limit))))
        .push(")");
    claim
}
