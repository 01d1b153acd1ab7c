//! The store's one way to reach a database.
//!
//! Every aggregate (accounts, tracking requests, jobs, changes, shipments, webhooks,
//! deliveries) is written once over [`Backend`]: it builds [`Query`]s, reads [`Row`]s, and
//! writes [`Unit`]s, each one transaction. The two drivers ([`sqlite`], [`postgres`])
//! implement it; what differs in their SQL is in [`Dialect`] and nowhere else.

pub(crate) mod fullness;
mod lost;
pub(crate) mod postgres;
mod query;
mod row;
pub(crate) mod sqlite;

use async_trait::async_trait;

pub(crate) use query::{Query, ROWS_PER_STATEMENT, Value};
pub(crate) use row::{Cell, Row};

use crate::{Page, PageRequest, StoreError};

/// What differs between the SQL of the two databases.
#[derive(Debug)]
pub(crate) struct Dialect {
    /// The smaller of two values (`MIN` on SQLite, `LEAST` on PostgreSQL).
    pub(crate) least: &'static str,
    /// The larger of two values (`MAX` on SQLite, `GREATEST` on PostgreSQL).
    pub(crate) greatest: &'static str,
    /// An expression for a fresh random UUID.
    pub(crate) new_uuid: &'static str,
    /// Whether a claim's inner `SELECT` locks the rows it picks and skips rows another
    /// claim holds (`FOR UPDATE … SKIP LOCKED` on PostgreSQL; SQLite's single writer
    /// serializes claims).
    pub(crate) skip_locked: bool,
    /// Whether a `WITH` may hold statements that write (PostgreSQL), so that writes to
    /// several tables that hang together are one statement; SQLite's are run one by one.
    pub(crate) writable_ctes: bool,
    /// A statement that makes concurrent first starts take turns, where writers run at
    /// once (PostgreSQL); SQLite has one writer.
    pub(crate) lock_accounts: Option<&'static str>,
    /// Whether triggers keep per-status counts of tracking requests (SQLite, where counting
    /// rows for every list's total was the cost of a list; PostgreSQL counts with its index
    /// and would make one row per account a point of contention).
    pub(crate) request_counts: bool,
    /// Whether the lists' counts are kept as deltas that triggers append and
    /// `counts::fold` folds now and then (PostgreSQL, so that concurrent writers of one
    /// account never wait on one counter row), rather than counters that triggers update
    /// in place (SQLite, one writer).
    pub(crate) counts_folded: bool,
    /// What goes before a column so that no index of it is used: SQLite's unary `+`, where
    /// a plan is chosen without statistics and would walk an account's index in order
    /// rather than fetch a search's few candidates by key; PostgreSQL plans from its
    /// statistics.
    pub(crate) no_index: &'static str,
    /// What follows a text in `UPPER(…)` so that only the letters `a` to `z` change: the
    /// search's one case rule, the same on both backends and in `Search` (SQLite's `UPPER`
    /// changes only those; PostgreSQL's follows the database's locale unless told `"C"`).
    pub(crate) ascii_only: &'static str,
}

impl Dialect {
    /// `expr` in upper case by the search's one case rule (see [`Dialect::ascii_only`]).
    pub(crate) fn upper(&self, expr: &str) -> String {
        format!("UPPER({expr}{})", self.ascii_only)
    }

    /// What a claim's inner `SELECT` ends with to lock the rows of `tables` it picks.
    pub(crate) fn skip_locked(&self, tables: &str) -> String {
        if self.skip_locked {
            format!(" FOR UPDATE OF {tables} SKIP LOCKED")
        } else {
            String::new()
        }
    }
}

/// How long a read may take, so the SQLite driver can tell its runtime (see
/// `sqlite::readers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cost {
    /// A lookup by key, a first page: microseconds.
    Point,
    /// A read that may scan many rows.
    Scan,
}

/// Statements to run in one transaction, and the checks that decide whether to keep them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Unit {
    pub(crate) queries: Vec<Query>,
    /// Each guard lists statements of which at least one must affect a row; when one does
    /// not hold, the unit's writes are undone (only its own: other units committed with it
    /// stay).
    pub(crate) guards: Vec<Vec<usize>>,
    /// The statement whose unique violation means a tracking request would duplicate an
    /// open one ([`StoreError::Duplicate`]); elsewhere a unique violation is a failure.
    pub(crate) duplicate_at: Option<usize>,
    /// Whether writing the unit twice leaves what a client could tell from writing it once
    /// (a rate limiter's take, an upsert of absolute values), so that a connection lost
    /// while it was being committed may be followed by writing it again.
    pub(crate) retry_safe: bool,
}

impl Unit {
    /// A unit of `queries`, kept whatever they affect.
    pub(crate) fn of(queries: Vec<Query>) -> Self {
        Self {
            queries,
            ..Self::default()
        }
    }

    /// A unit of `queries` that may be written again when its commit's outcome is unknown.
    pub(crate) fn retry_safe(queries: Vec<Query>) -> Self {
        Self {
            retry_safe: true,
            ..Self::of(queries)
        }
    }

    /// Adds `query`; returns its index.
    pub(crate) fn push(&mut self, query: Query) -> usize {
        self.queries.push(query);
        self.queries.len() - 1
    }

    /// Whether every guard holds, from the rows each statement affected.
    pub(crate) fn holds(&self, affected: &[u64]) -> bool {
        self.guards.iter().all(|steps| {
            steps
                .iter()
                .any(|step| affected.get(*step).copied().unwrap_or(0) > 0)
        })
    }
}

/// What one statement did.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Done {
    /// Rows written (or returned, for a read).
    pub(crate) affected: u64,
    /// Rows handed back (`RETURNING`).
    pub(crate) rows: Vec<Row>,
}

/// What a unit did: each statement's result, and whether its guards held (when they did
/// not, nothing of it was kept).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Written {
    pub(crate) done: Vec<Done>,
    pub(crate) kept: bool,
}

impl Written {
    /// The rows each statement affected.
    pub(crate) fn affected(&self) -> Vec<u64> {
        self.done.iter().map(|done| done.affected).collect()
    }

    /// The rows statement `index` handed back.
    pub(crate) fn rows(&mut self, index: usize) -> Vec<Row> {
        self.done
            .get_mut(index)
            .map(|done| std::mem::take(&mut done.rows))
            .unwrap_or_default()
    }
}

/// A database: reads, and writes in units.
#[async_trait]
pub(crate) trait Backend: Send + Sync {
    /// The SQL that differs on this database.
    fn dialect(&self) -> &'static Dialect;

    /// Runs reads together (in one snapshot where the database gives one cheaply, so a page
    /// and its total agree) and returns each one's rows.
    async fn read(&self, queries: &[Query], cost: Cost) -> Result<Vec<Vec<Row>>, StoreError>;

    /// Runs a unit in one transaction.
    async fn write(&self, unit: Unit) -> Result<Written, StoreError>;

    /// Runs a read that may scan many rows.
    async fn fetch(&self, query: &Query) -> Result<Vec<Row>, StoreError> {
        Ok(first(
            self.read(std::slice::from_ref(query), Cost::Scan).await?,
        ))
    }

    /// Runs a read by key; its first row.
    async fn fetch_one(&self, query: &Query) -> Result<Option<Row>, StoreError> {
        Ok(
            first(self.read(std::slice::from_ref(query), Cost::Point).await?)
                .into_iter()
                .next(),
        )
    }

    /// Runs one write; the rows it affected.
    async fn execute(&self, query: Query) -> Result<u64, StoreError> {
        let written = self.write(Unit::of(vec![query])).await?;
        Ok(written.done.first().map_or(0, |done| done.affected))
    }

    /// Runs one write; the rows it handed back.
    async fn returning(&self, query: Query) -> Result<Vec<Row>, StoreError> {
        Ok(self.write(Unit::of(vec![query])).await?.rows(0))
    }

    /// Runs writes in one transaction; the rows each affected.
    async fn execute_all(&self, queries: Vec<Query>) -> Result<Vec<u64>, StoreError> {
        Ok(self.write(Unit::of(queries)).await?.affected())
    }
}

fn first(mut results: Vec<Vec<Row>>) -> Vec<Row> {
    if results.is_empty() {
        Vec::new()
    } else {
        results.swap_remove(0)
    }
}

/// Parses every row.
pub(crate) fn parse_all<T>(
    rows: Vec<Row>,
    parse: impl Fn(&Row) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    rows.iter().map(parse).collect()
}

/// A page of rows and their total: how every list is read.
pub(crate) struct Paged<'a> {
    /// `SELECT` and its columns, without `FROM`.
    pub(crate) select: &'a str,
    /// `FROM … WHERE …`.
    pub(crate) filter: Query,
    /// `ORDER BY` this.
    pub(crate) order: &'a str,
    /// Counts the total instead of counting the filter's rows, when given.
    pub(crate) count: Option<Query>,
    pub(crate) cost: Cost,
}

impl<'a> Paged<'a> {
    /// Newest first, counting the filter's rows, a scan.
    pub(crate) fn newest_first(select: &'a str, filter: Query) -> Self {
        Self {
            select,
            filter,
            order: "created_at DESC, id DESC",
            count: None,
            cost: Cost::Scan,
        }
    }

    /// In `order` (an `ORDER BY` list ending in a unique column, so pages do not overlap).
    pub(crate) fn ordered(mut self, order: &'a str) -> Self {
        self.order = order;
        self
    }

    /// Reads `page`, parsing each row; counts the whole list when the page asks.
    pub(crate) async fn read<B: Backend + ?Sized, T>(
        self,
        backend: &B,
        page: PageRequest,
        parse: impl Fn(&Row) -> Result<T, StoreError>,
    ) -> Result<Page<T>, StoreError> {
        let count = page.counted.then(|| {
            self.count.unwrap_or_else(|| {
                let mut count = Query::new("SELECT COUNT(*) AS count");
                count.push(&self.filter.sql);
                count.values.clone_from(&self.filter.values);
                count
            })
        });
        let mut rows = Query::new(self.select);
        rows.push(&self.filter.sql);
        rows.values = self.filter.values;
        rows.push(" ORDER BY ")
            .push(self.order)
            .push(" LIMIT ")
            .bind(page.limit())
            .push(" OFFSET ")
            .bind(page.offset());
        let queries: Vec<Query> = count.into_iter().chain([rows]).collect();
        let mut results = backend.read(&queries, self.cost).await?;
        let items = parse_all(results.pop().unwrap_or_default(), parse)?;
        let total = match results.pop() {
            Some(counted) => counted
                .first()
                .map(|row| row.int("count"))
                .transpose()?
                .map_or(0, |total| u64::try_from(total).unwrap_or(0)),
            None => u64::try_from(items.len()).unwrap_or(u64::MAX),
        };
        Ok(Page { items, total })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_is_kept_only_when_every_guard_sees_a_row() {
        let mut unit = Unit::of(vec![Query::new("d"), Query::new("r"), Query::new("u")]);
        assert!(unit.holds(&[0, 0, 0]));
        unit.guards = vec![vec![0, 1], vec![2]];
        assert!(unit.holds(&[1, 0, 1]));
        assert!(unit.holds(&[0, 1, 1]));
        assert!(!unit.holds(&[0, 0, 1]));
        assert!(!unit.holds(&[1, 0, 0]));
    }
}
