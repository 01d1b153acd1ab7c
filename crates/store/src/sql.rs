//! SQL that both backends run unchanged; each backend binds its own column types
//! (hyphenated text and RFC 3339 text on SQLite, `uuid` and `timestamptz` on PostgreSQL).
//! Statements that differ between the backends stay with their backend.

use crate::rows::{
    account_columns, api_key_columns, container_columns, domain_event_columns, open_statuses,
    shipment_columns, tracking_request_columns, transport_event_columns,
};

/// Inserts an account; a taken name inserts nothing (the unique constraint on `name`
/// decides, on both backends, without reading an error message).
pub(crate) const INSERT_ACCOUNT: &str = "INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3) \
     ON CONFLICT (name) DO NOTHING";

/// What a taken account name is reported as.
pub(crate) const ACCOUNT_NAME_TAKEN: &str = "an account with this name";

pub(crate) const COUNT_ACCOUNTS: &str = "SELECT COUNT(*) FROM accounts";

pub(crate) const ACCOUNT_BY_ID: &str = concat!(
    "SELECT ",
    account_columns!(),
    " FROM accounts WHERE id = $1"
);

pub(crate) const ACCOUNT_BY_NAME: &str = concat!(
    "SELECT ",
    account_columns!(),
    " FROM accounts WHERE name = $1"
);

pub(crate) const LIST_ACCOUNTS: &str = concat!(
    "SELECT ",
    account_columns!(),
    " FROM accounts ORDER BY created_at, id"
);

/// Inserts an API key; a taken prefix inserts nothing (the unique constraint on `prefix`).
pub(crate) const INSERT_API_KEY: &str = "INSERT INTO api_keys (id, account_id, prefix, hash, created_at, revoked_at) \
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (prefix) DO NOTHING";

/// What a taken key prefix is reported as.
pub(crate) const KEY_PREFIX_TAKEN: &str = "an API key with this prefix";

pub(crate) const API_KEY_BY_PREFIX: &str = concat!(
    "SELECT ",
    api_key_columns!(),
    " FROM api_keys WHERE prefix = $1"
);

pub(crate) const REVOKE_API_KEY: &str = concat!(
    "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE prefix = $1 RETURNING ",
    api_key_columns!()
);

pub(crate) const TRACKING_REQUEST_BY_ID: &str = concat!(
    "SELECT ",
    tracking_request_columns!(),
    " FROM tracking_requests WHERE id = $1 AND account_id = $2"
);

/// The open request that makes a new one a duplicate: account, normalized number, SCAC.
pub(crate) const OPEN_TWIN: &str = concat!(
    "SELECT id FROM tracking_requests WHERE account_id = $1 AND number_normalized = $2 \
     AND COALESCE(scac, '') = $3 AND status IN ",
    open_statuses!(),
    " LIMIT 1"
);

pub(crate) const PATCH_TRACKING_REQUEST: &str = concat!(
    "UPDATE tracking_requests SET ref_numbers = COALESCE($3, ref_numbers), \
     shipment_tags = COALESCE($4, shipment_tags), updated_at = $5 \
     WHERE id = $1 AND account_id = $2 RETURNING ",
    tracking_request_columns!()
);

/// The newest-first order of every tracking-request list.
pub(crate) const NEWEST_FIRST: &str = " ORDER BY created_at DESC, id DESC LIMIT ";

pub(crate) const SELECT_TRACKING_REQUESTS: &str = concat!(
    "SELECT ",
    tracking_request_columns!(),
    " FROM tracking_requests"
);

/// Removes a completed job, unless it was scheduled again while held.
pub(crate) const COMPLETE_JOB: &str =
    "DELETE FROM jobs WHERE id = $1 AND lease_token = $2 AND revision = $3";

/// Releases a held job that was scheduled again meanwhile, keeping the new schedule.
pub(crate) const RELEASE_JOB: &str =
    "UPDATE jobs SET lease_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2";

/// When the next job of a kind can be claimed: its due time, or the end of its lease.
pub(crate) const NEXT_DUE: &str = "SELECT MIN(CASE WHEN lease_until IS NOT NULL AND lease_until > due_at \
     THEN lease_until ELSE due_at END) FROM jobs WHERE kind = $1";

/// A lookup's effect on its request, unless the request changed since it was read.
pub(crate) const COMMIT_TRACKING_REQUEST_STATE: &str = "UPDATE tracking_requests SET status = $2, \
     failed_reason = $3, is_retrying = $4, retry_count = CAST($5 AS INTEGER), \
     tracked_object_id = $6, scac = $7, updated_at = $8 WHERE id = $1 AND updated_at = $9";

/// Creates or updates a shipment; the client's `ref_numbers` and `tags` are never
/// overwritten by the tracker.
pub(crate) const UPSERT_SHIPMENT: &str = concat!(
    "INSERT INTO shipments (",
    shipment_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) \
     ON CONFLICT (id) DO UPDATE SET bill_of_lading_number = excluded.bill_of_lading_number, \
     pol_locode = excluded.pol_locode, pod_locode = excluded.pod_locode, route = excluded.route, \
     source = excluded.source, last_attempted_at = excluded.last_attempted_at, \
     last_succeeded_at = excluded.last_succeeded_at, last_changed_at = excluded.last_changed_at, \
     stopped_at = excluded.stopped_at, stopped_reason = excluded.stopped_reason, \
     updated_at = excluded.updated_at"
);

/// Creates or updates a container; its `ref_numbers` belong to the client.
pub(crate) const UPSERT_CONTAINER: &str = concat!(
    "INSERT INTO containers (",
    container_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
     ON CONFLICT (id) DO UPDATE SET current_status = excluded.current_status, \
     details = excluded.details, updated_at = excluded.updated_at"
);

/// Records a transport event unless the same (container, event, location, time) is known.
pub(crate) const INSERT_TRANSPORT_EVENT: &str = concat!(
    "INSERT INTO transport_events (",
    transport_event_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING"
);

/// Records a domain event unless its dedupe key is known.
pub(crate) const INSERT_DOMAIN_EVENT: &str = concat!(
    "INSERT INTO domain_events (",
    domain_event_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING"
);

/// Learns a port; a name replaces a missing or different one, nothing else is rewritten.
/// Reference rows conflict on their id, which is derived from their code, so the one
/// unique index PostgreSQL arbitrates on is the only one concurrent lookups can collide on.
pub(crate) const UPSERT_PORT: &str = "INSERT INTO ports (id, locode, name, updated_at) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET name = excluded.name, \
     updated_at = excluded.updated_at \
     WHERE excluded.name IS NOT NULL AND ports.name IS DISTINCT FROM excluded.name";

/// Learns a terminal and its port.
pub(crate) const UPSERT_TERMINAL: &str = "INSERT INTO terminals (id, code, port_locode, updated_at) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING";

/// Learns a vessel; a name replaces a missing or different one.
pub(crate) const UPSERT_VESSEL: &str = "INSERT INTO vessels (id, imo, name, updated_at) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET name = excluded.name, \
     updated_at = excluded.updated_at \
     WHERE excluded.name IS NOT NULL AND vessels.name IS DISTINCT FROM excluded.name";

/// A tracking request by id, whatever its account (for workers).
pub(crate) const TRACKING_REQUEST_FOR_WORK: &str = concat!(
    "SELECT ",
    tracking_request_columns!(),
    " FROM tracking_requests WHERE id = $1"
);

pub(crate) const SHIPMENT_OF_REQUEST: &str = concat!(
    "SELECT ",
    shipment_columns!(),
    " FROM shipments WHERE tracking_request_id = $1"
);

pub(crate) const CONTAINERS_OF_SHIPMENT: &str = concat!(
    "SELECT ",
    container_columns!(),
    " FROM containers WHERE shipment_id = $1 ORDER BY created_at, id"
);

pub(crate) const TRANSPORT_EVENTS_OF_SHIPMENT: &str = concat!(
    "SELECT ",
    transport_event_columns!(),
    " FROM transport_events WHERE shipment_id = $1 ORDER BY timestamp, id"
);

pub(crate) const DOMAIN_EVENTS_OF_ACCOUNT: &str = concat!(
    "SELECT ",
    domain_event_columns!(),
    " FROM domain_events WHERE account_id = $1 ORDER BY created_at, id"
);

/// The `LIKE` patterns of a free-text search of tracking requests (`q`): the request
/// number in each of its matching forms, and the reference numbers as stored (JSON text, so
/// the text is matched as JSON would write it and cannot straddle two numbers).
pub(crate) struct Search {
    /// Patterns for `number_normalized`.
    pub numbers: Vec<String>,
    /// The pattern for the upper-cased JSON text of `ref_numbers`.
    pub reference: String,
}

/// `%text%`, with `LIKE`'s own characters escaped by `\`.
fn containing(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

impl Search {
    pub(crate) fn of(text: &str) -> Self {
        let text = text.trim();
        let mut numbers = vec![containing(&tidemark_domain::request_number::general_form(
            text,
        ))];
        let container = containing(&tidemark_domain::container_number::normalize(text));
        if !numbers.contains(&container) {
            numbers.push(container);
        }
        let json = serde_json::to_string(&text.to_ascii_uppercase()).unwrap_or_default();
        let inner = json
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix('"'))
            .unwrap_or("");
        Self {
            numbers,
            reference: containing(inner),
        }
    }
}

/// The subscription rule, written once: a recorded domain event becomes one pending
/// notification for each active webhook of its account that wants it (every event, or
/// this one among its events), in the transaction that records the event. `$new_uuid` is
/// the backend's expression for a fresh UUID, the only part that differs.
macro_rules! fan_out {
    ($new_uuid:literal) => {
        concat!(
            "INSERT INTO webhook_notifications (id, account_id, webhook_id, domain_event_id, \
             event, delivery_status, attempts, due_at, created_at, updated_at) SELECT ",
            $new_uuid,
            ", w.account_id, w.id, d.id, d.name, 'pending', 0, $2, $2, $2 \
             FROM webhooks w JOIN domain_events d ON d.id = $1 AND d.account_id = w.account_id \
             WHERE w.active AND (w.all_events OR EXISTS (SELECT 1 FROM webhook_events e \
             WHERE e.webhook_id = w.id AND e.event = d.name)) \
             ON CONFLICT (webhook_id, domain_event_id) DO NOTHING"
        )
    };
}
pub(crate) use fan_out;
