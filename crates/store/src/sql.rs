//! SQL that both backends run unchanged; each backend binds its own column types
//! (hyphenated text and RFC 3339 text on SQLite, `uuid` and `timestamptz` on PostgreSQL).
//! Statements that differ between the backends stay with their backend.

use crate::rows::{account_columns, api_key_columns, open_statuses, tracking_request_columns};

pub(crate) const INSERT_ACCOUNT: &str =
    "INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3)";

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

pub(crate) const INSERT_API_KEY: &str = "INSERT INTO api_keys (id, account_id, prefix, hash, created_at, revoked_at) \
     VALUES ($1, $2, $3, $4, $5, $6)";

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

pub(crate) const SET_TRACKING_REQUEST_STATE: &str = "UPDATE tracking_requests SET status = $3, failed_reason = $4, \
     is_retrying = $5, retry_count = $6, tracked_object_id = $7, scac = $8, updated_at = $9 \
     WHERE id = $1 AND account_id = $2";

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
