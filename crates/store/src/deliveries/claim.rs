//! The claim of due notifications, per backend: PostgreSQL's dispatchers claim at once,
//! each locking what it takes; SQLite's one writer claims alone. Both read each webhook's
//! backlog from its own due index, so a webhook at its limit is not scanned, and from
//! where the dispatcher's last claim of it ended when told, up to the webhook's own limit
//! when it has one (`WebhookClaim`).

use std::time::Duration;

use tidemark_domain::Timestamp;
use uuid::Uuid;

use super::WebhookClaim;
use crate::db::{Query, Value};

/// Opens the claim's `IN (…)` with `r (wid, due, nid, cap)`: where each webhook named
/// resumes and its limit (nothing when no webhook is named).
fn named(claim: &mut Query, webhooks: &[WebhookClaim]) {
    claim.push(" WHERE id IN (");
    if webhooks.is_empty() {
        return;
    }
    claim.push("WITH r (wid, due, nid, cap) AS (VALUES ");
    for (at, webhook) in webhooks.iter().enumerate() {
        if at > 0 {
            claim.push(", ");
        }
        let (due, id) = webhook.after.unzip();
        claim.bind_list([
            Value::from(webhook.webhook.as_uuid()),
            Value::from(due),
            Value::from(id.map(|id| id.as_uuid())),
            Value::Int(Some(i64::from(webhook.in_flight))),
        ]);
    }
    claim.push(") ");
}

/// What the claim adds for the webhooks named: the join of `r`, the condition on the
/// notifications (`alias`) that resumes after `r`'s place (`start` and `nil` stand for
/// "from the start"), and each webhook's limit; the defaults when none is named.
fn named_parts(
    webhooks: &[WebhookClaim],
    alias: &str,
    (start, nil): (&str, &str),
) -> (&'static str, String, String) {
    if webhooks.is_empty() {
        return ("", String::new(), "$cap".to_owned());
    }
    (
        " LEFT JOIN r ON r.wid = w.id",
        format!(
            " AND ({alias}.due_at, {alias}.id) > (COALESCE(r.due, {start}), COALESCE(r.nid, {nil}))"
        ),
        "COALESCE(r.cap, $cap)".to_owned(),
    )
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
    webhooks: &[WebhookClaim],
) -> Query {
    let mut claim = leased(token, lease, now);
    named(&mut claim, webhooks);
    let (joined, past, cap) = named_parts(
        webhooks,
        "n",
        ("'-infinity'", "'00000000-0000-0000-0000-000000000000'"),
    );
    claim
        .push("SELECT c.id FROM webhooks w")
        .push(joined)
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
        .push(&past)
        .push(" AND COALESCE(n.lease_until, n.due_at) <= ")
        .bind(now)
        .push(" ORDER BY n.due_at, n.id LIMIT GREATEST(");
    push_cap(&mut claim, &cap, per_webhook);
    claim
        .push(
            " - b.held, 0) FOR UPDATE SKIP LOCKED) c WHERE w.active ORDER BY c.due_at, c.id LIMIT ",
        )
        .bind(Value::Int(Some(i64::from(limit))))
        .push(")");
    claim
}

/// Appends `cap` (from [`named_parts`]), its `$cap` bound to `per_webhook`.
fn push_cap(claim: &mut Query, cap: &str, per_webhook: u32) {
    let (before, after) = cap.split_once("$cap").unwrap_or((cap, ""));
    claim
        .push(before)
        .bind(Value::Int(Some(i64::from(per_webhook))))
        .push(after);
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
    webhooks: &[WebhookClaim],
) -> Query {
    let mut claim = leased(token, lease, now);
    named(&mut claim, webhooks);
    // SQLite's times and ids are text.
    let (joined, past, cap) = named_parts(webhooks, "x", ("''", "''"));
    claim
        .push(
            "SELECT p.id FROM (SELECT n.id, n.due_at, ROW_NUMBER() OVER \
             (PARTITION BY n.webhook_id ORDER BY n.due_at, n.id) + (SELECT count(*) \
             FROM webhook_notifications h WHERE h.webhook_id = n.webhook_id \
             AND h.lease_until > ",
        )
        .bind(now)
        .push(" AND h.delivery_status = 'pending') AS place, ");
    push_cap(&mut claim, &cap, per_webhook);
    claim
        .push(" AS cap FROM webhooks w")
        .push(joined)
        .push(
            " JOIN webhook_notifications n ON n.id IN \
             (SELECT x.id FROM webhook_notifications x WHERE x.webhook_id = w.id \
             AND x.delivery_status = 'pending' AND x.due_at <= ",
        )
        .bind(now)
        .push(&past)
        .push(" AND COALESCE(x.lease_until, x.due_at) <= ")
        .bind(now)
        .push(" ORDER BY x.due_at, x.id LIMIT ")
        // SQLite's `LIMIT` cannot read the row's webhook: the largest limit, and the
        // webhook's own below.
        .bind(Value::Int(Some(i64::from(
            webhooks
                .iter()
                .map(|webhook| webhook.in_flight)
                .fold(per_webhook, u32::max),
        ))));
    claim
        .push(") WHERE w.active) p WHERE p.place <= p.cap ORDER BY p.due_at, p.id LIMIT ")
        .bind(Value::Int(Some(i64::from(limit))))
        .push(")");
    claim
}
