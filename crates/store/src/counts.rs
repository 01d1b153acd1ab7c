//! The counts the console's lists show beside their choices, kept as the rows are written
//! (migrations `0028_list_counts` on SQLite, `0029_list_counts` on PostgreSQL) so that a
//! list of a whole account is counted without reading its rows: per account and per
//! combination of what a list is counted by. On SQLite triggers update counters in place
//! (one writer); on PostgreSQL they append deltas, which a read sums with the counters
//! and [`fold`] folds into them now and then.

use tidemark_domain::AccountId;

use crate::db::{Dialect, Query};

/// A kept count's key columns, as the containers list reads them (availability 2 is
/// unknown).
const CONTAINER_KEY: &str = "current_status, available, has_holds, hold_names";

/// What the containers list reads of a kept count, named as its tally is.
const CONTAINER_SELECTED: &str = "current_status, \
    CASE WHEN available = 2 THEN NULL ELSE available END AS available_for_pickup, \
    has_holds, hold_names";

const SHIPMENT_KEY: &str = "scac, stopped";

/// A table of kept counts and its deltas' table.
struct Kept {
    table: &'static str,
    deltas: &'static str,
}

const CONTAINERS: Kept = Kept {
    table: "container_counts",
    deltas: "container_count_deltas",
};

const SHIPMENTS: Kept = Kept {
    table: "shipment_counts",
    deltas: "shipment_count_deltas",
};

/// `account`'s counts kept in `kept` by `key`, selected as `selected` with `count`.
fn kept(dialect: &Dialect, kept: &Kept, key: &str, selected: &str, account: AccountId) -> Query {
    let Kept { table, deltas } = kept;
    if !dialect.counts_folded {
        let mut query = Query::new(&format!(
            "SELECT {selected}, count FROM {table} WHERE count <> 0 AND account_id = "
        ));
        query.bind(account.as_uuid());
        return query;
    }
    let mut query = Query::new(&format!(
        "SELECT {selected}, CAST(SUM(count) AS BIGINT) AS count FROM \
         (SELECT {key}, count FROM {table} WHERE account_id = "
    ));
    query
        .bind(account.as_uuid())
        .push(&format!(
            " UNION ALL SELECT {key}, count FROM {deltas} WHERE account_id = "
        ))
        .bind(account.as_uuid())
        .push(&format!(") AS kept GROUP BY {key} HAVING SUM(count) <> 0"));
    query
}

/// How many of `account`'s containers stand each way, as the containers list tallies them.
pub(crate) fn containers(dialect: &Dialect, account: AccountId) -> Query {
    kept(
        dialect,
        &CONTAINERS,
        CONTAINER_KEY,
        CONTAINER_SELECTED,
        account,
    )
}

/// How many of `account`'s shipments are with each line, tracked or stopped.
pub(crate) fn shipments(dialect: &Dialect, account: AccountId) -> Query {
    kept(dialect, &SHIPMENTS, SHIPMENT_KEY, SHIPMENT_KEY, account)
}

/// The sum of `counts` (one of the above): a whole account's total, from its kept counts.
pub(crate) fn total(counts: Query) -> Query {
    let mut total = Query::new("SELECT CAST(COALESCE(SUM(k.count), 0) AS BIGINT) AS count FROM (");
    total.push(&counts.sql);
    total.values = counts.values;
    total.push(") k");
    total
}

/// Folds the deltas into the counters (PostgreSQL; nothing to fold on SQLite): each
/// statement sums exactly the deltas it deletes, taking only those no other folder holds,
/// and adds them to the counters in the key's order, so folders in several processes
/// neither lose a delta nor wait on each other in a cycle.
pub(crate) fn fold(dialect: &Dialect) -> Vec<Query> {
    if !dialect.counts_folded {
        return Vec::new();
    }
    [
        (CONTAINERS, format!("account_id, {CONTAINER_KEY}")),
        (SHIPMENTS, format!("account_id, {SHIPMENT_KEY}")),
    ]
    .into_iter()
    .map(|(Kept { table, deltas }, key)| {
        Query::new(&format!(
            "WITH gone AS (DELETE FROM {deltas} WHERE ctid IN \
             (SELECT ctid FROM {deltas} FOR UPDATE SKIP LOCKED) RETURNING {key}, count) \
             INSERT INTO {table} ({key}, count) \
             SELECT {key}, SUM(count) FROM gone GROUP BY {key} ORDER BY {key} \
             ON CONFLICT ({key}) DO UPDATE SET count = {table}.count + excluded.count"
        ))
    })
    .collect()
}
