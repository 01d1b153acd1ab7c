//! A batch of settlements in a few statements: the attempts in one multi-row insert, the
//! notifications' new states in one `UPDATE … FROM` a list of values that hands back the
//! rows whose claim held, and the webhooks' health grouped where the batch allows. Every
//! statement writes only under a claim that still holds, and the notifications' updates
//! (which end the claims) come last, so each of the others still sees them. On PostgreSQL
//! the three are one statement (a `WITH` of writes, which sees the claims as they were
//! before it), so a batch of successes is one round trip and commits on its own.

use std::collections::{HashMap, HashSet};

use tidemark_domain::webhook::{DeliveryStatus, Settlement};
use tidemark_domain::{WebhookId, WebhookNotificationId};
use uuid::Uuid;

use super::{Settle, held};
use crate::db::{Dialect, Query, Unit, Value};

/// The statements that settle `batch`, and the indexes of those that hand back the ids of
/// the notifications they settled.
pub(super) fn unit(dialect: &Dialect, batch: &[Settle<'_>]) -> (Unit, Vec<usize>) {
    let mut unit = Unit::default();
    let heals = only_successes(batch);
    if dialect.writable_ctes {
        for item in batch.iter().filter(|item| !heals(item)) {
            for statement in one_health(item) {
                unit.push(statement);
            }
        }
        let settling = chunks(batch)
            .into_iter()
            .map(|chunk| unit.push(all_in_one(chunk, &heals)))
            .collect();
        return (unit, settling);
    }
    for statement in attempts(batch) {
        unit.push(statement);
    }
    for statement in health(batch, &heals) {
        unit.push(statement);
    }
    let settling = notifications(batch)
        .into_iter()
        .map(|statement| unit.push(statement))
        .collect();
    (unit, settling)
}

/// Whether an item's webhook has only successes in `batch`: their failing streaks are
/// cleared together (clearing once if any of their claims holds is what clearing once per
/// held claim comes to); a webhook with a failure in the batch has each of its
/// settlements applied in order, as alone.
fn only_successes(batch: &[Settle<'_>]) -> impl Fn(&Settle<'_>) -> bool + use<> {
    let mut only: HashMap<WebhookId, bool> = HashMap::new();
    for item in batch {
        let success = matches!(item.settlement, Settlement::Succeeded);
        only.entry(item.claimed.notification.webhook_id)
            .and_modify(|all| *all &= success)
            .or_insert(success);
    }
    move |item| {
        only.get(&item.claimed.notification.webhook_id)
            .copied()
            .unwrap_or(false)
    }
}

/// What a settlement writes to its notification: its status and when it is due again.
fn new_state(settlement: &Settlement) -> (DeliveryStatus, Option<tidemark_domain::Timestamp>) {
    match settlement {
        Settlement::Succeeded => (DeliveryStatus::Succeeded, None),
        Settlement::Retry(at) => (DeliveryStatus::Pending, Some(*at)),
        Settlement::Failed | Settlement::DisableWebhook(_) => (DeliveryStatus::Failed, None),
    }
}

/// PostgreSQL's settlement of `chunk` in one statement: the notifications' new states
/// under their claims, the attempts of those settled, and the failing streaks of their
/// webhooks that only succeeded cleared; it hands back the ids it settled.
fn all_in_one(chunk: &[Settle<'_>], heals: &impl Fn(&Settle<'_>) -> bool) -> Query {
    let mut statement = Query::insert_rows(
        "WITH v (nid, token, status, due, aid, at, status_code, error, latency_ms, body, heals) \
         AS (VALUES ",
        chunk.iter().map(|item| {
            let (status, due) = new_state(item.settlement);
            let attempt = item.attempt;
            vec![
                Value::from(item.claimed.notification.id.as_uuid()),
                Value::from(item.claimed.lease_token),
                Value::from(status.as_str()),
                Value::from(due),
                Value::from(Uuid::now_v7()),
                Value::from(attempt.at),
                Value::int(attempt.status_code),
                Value::from(attempt.error.clone()),
                Value::from(i64::try_from(attempt.latency_ms).unwrap_or(i64::MAX)),
                Value::from(attempt.response_body.clone()),
                Value::from(heals(item)),
            ]
        }),
        "), settled AS (UPDATE webhook_notifications n SET delivery_status = v.status, \
         attempts = n.attempts + 1, due_at = v.due, lease_until = NULL, lease_token = NULL, \
         updated_at = v.at FROM v WHERE n.id = v.nid AND n.lease_token = v.token \
         RETURNING n.id, n.webhook_id, v.aid, v.at, v.status_code, v.error, v.latency_ms, \
         v.body, v.heals), \
         logged AS (INSERT INTO webhook_attempts (id, notification_id, attempted_at, \
         status_code, error, latency_ms, response_body) SELECT aid, id, at, status_code, \
         error, latency_ms, body FROM settled), \
         healed AS (UPDATE webhooks SET failing_since = NULL WHERE failing_since IS NOT NULL \
         AND id IN (SELECT webhook_id FROM settled WHERE heals)) \
         SELECT id FROM settled",
    );
    // `chunks` keeps a chunk within one statement's rows.
    statement.pop().unwrap_or_default()
}

/// Whether each of `batch` was settled, from the ids the settling statements handed back
/// (one statement never names a notification twice; see [`notifications`]).
pub(super) fn held_of(batch: &[Settle<'_>], settled: &[Vec<Uuid>]) -> Vec<bool> {
    let mut at = 0;
    chunks(batch)
        .into_iter()
        .flat_map(|chunk| {
            let ids: HashSet<Uuid> = settled.get(at).into_iter().flatten().copied().collect();
            at += 1;
            chunk
                .iter()
                .map(|item| ids.contains(&item.claimed.notification.id.as_uuid()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The attempts, each logged while its claim holds.
fn attempts(batch: &[Settle<'_>]) -> Vec<Query> {
    Query::insert_rows(
        "WITH v (aid, nid, token, at, status_code, error, latency_ms, body) AS (VALUES ",
        batch.iter().map(|item| {
            let attempt = item.attempt;
            vec![
                Value::from(Uuid::now_v7()),
                Value::from(item.claimed.notification.id.as_uuid()),
                Value::from(item.claimed.lease_token),
                Value::from(attempt.at),
                Value::int(attempt.status_code),
                Value::from(attempt.error.clone()),
                Value::from(i64::try_from(attempt.latency_ms).unwrap_or(i64::MAX)),
                Value::from(attempt.response_body.clone()),
            ]
        }),
        ") INSERT INTO webhook_attempts (id, notification_id, attempted_at, status_code, error, \
         latency_ms, response_body) SELECT v.aid, n.id, v.at, v.status_code, v.error, \
         v.latency_ms, v.body FROM v JOIN webhook_notifications n ON n.id = v.nid \
         AND n.lease_token = v.token",
    )
}

/// The webhooks' health: the streaks of the webhooks that only succeeded cleared in one
/// statement, the others' settlements applied one by one (see [`only_successes`]).
fn health(batch: &[Settle<'_>], heals: &impl Fn(&Settle<'_>) -> bool) -> Vec<Query> {
    let mut statements = Query::insert_rows(
        "WITH v (nid, token) AS (VALUES ",
        batch.iter().filter(|item| heals(item)).map(|item| {
            vec![
                Value::from(item.claimed.notification.id.as_uuid()),
                Value::from(item.claimed.lease_token),
            ]
        }),
        ") UPDATE webhooks SET failing_since = NULL WHERE failing_since IS NOT NULL \
         AND id IN (SELECT n.webhook_id FROM v JOIN webhook_notifications n \
         ON n.id = v.nid AND n.lease_token = v.token)",
    );
    for item in batch.iter().filter(|item| !heals(item)) {
        statements.extend(one_health(item));
    }
    statements
}

/// One settlement's effect on its webhook: a success clears its failing streak; a failure
/// starts one (if none runs) and turns the webhook off once it is too old, or at once on
/// 410.
fn one_health(item: &Settle<'_>) -> Vec<Query> {
    let Settle {
        claimed,
        attempt,
        settlement,
        failing_cutoff,
    } = *item;
    let webhook = claimed.notification.webhook_id.as_uuid();
    let mut health = Query::new("UPDATE webhooks SET ");
    match settlement {
        Settlement::Succeeded => {
            // Written only when a streak ends: most successes change nothing here.
            health
                .push("failing_since = NULL WHERE id = ")
                .bind(webhook)
                .push(" AND failing_since IS NOT NULL");
        }
        Settlement::Retry(_) | Settlement::Failed => {
            health
                .push("failing_since = COALESCE(failing_since, ")
                .bind(attempt.at)
                .push(") WHERE id = ")
                .bind(webhook);
        }
        Settlement::DisableWebhook(reason) => {
            health
                .push("active = ")
                .bind(false)
                .push(", disabled_reason = ")
                .bind(reason.as_str())
                .push(", updated_at = ")
                .bind(attempt.at)
                .push(" WHERE id = ")
                .bind(webhook);
        }
    }
    held(&mut health, claimed);
    let mut queries = vec![health];
    if matches!(settlement, Settlement::Retry(_) | Settlement::Failed) {
        let mut too_long = Query::new("UPDATE webhooks SET active = ");
        too_long
            .bind(false)
            .push(", disabled_reason = ")
            .bind(super::FAILING_TOO_LONG)
            .push(", updated_at = ")
            .bind(attempt.at)
            .push(" WHERE id = ")
            .bind(webhook)
            .push(" AND active AND failing_since <= ")
            .bind(failing_cutoff);
        held(&mut too_long, claimed);
        queries.push(too_long);
    }
    queries
}

/// `batch` in runs that name each notification once (a notification claimed again by this
/// process after its lease ran out may be settled twice in one batch, once per claim).
fn chunks<'b, 'a>(batch: &'b [Settle<'a>]) -> Vec<&'b [Settle<'a>]> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut seen: HashSet<WebhookNotificationId> = HashSet::new();
    for (at, item) in batch.iter().enumerate() {
        let id = item.claimed.notification.id;
        if at - start == crate::db::ROWS_PER_STATEMENT || !seen.insert(id) {
            chunks.push(&batch[start..at]);
            start = at;
            seen.clear();
            seen.insert(id);
        }
    }
    if start < batch.len() {
        chunks.push(&batch[start..]);
    }
    chunks
}

/// The notifications' new states, each written only under its claim; each statement hands
/// back the ids it settled.
fn notifications(batch: &[Settle<'_>]) -> Vec<Query> {
    chunks(batch)
        .into_iter()
        .flat_map(|chunk| {
            Query::insert_rows(
                "WITH v (nid, token, status, due, at) AS (VALUES ",
                chunk.iter().map(|item| {
                    let (status, due) = new_state(item.settlement);
                    vec![
                        Value::from(item.claimed.notification.id.as_uuid()),
                        Value::from(item.claimed.lease_token),
                        Value::from(status.as_str()),
                        Value::from(due),
                        Value::from(item.attempt.at),
                    ]
                }),
                ") UPDATE webhook_notifications SET delivery_status = v.status, \
                 attempts = attempts + 1, due_at = v.due, lease_until = NULL, \
                 lease_token = NULL, updated_at = v.at FROM v \
                 WHERE webhook_notifications.id = v.nid \
                 AND webhook_notifications.lease_token = v.token RETURNING id",
            )
        })
        .collect()
}
