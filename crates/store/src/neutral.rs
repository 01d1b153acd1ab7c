//! Queries written once for both backends.
//!
//! Reads of shipments, containers, events and reference data are plain SQL that both
//! backends understand. They are built here as text with `$n` placeholders and neutral
//! [`Value`]s; each backend implements [`Neutral`] (run a query, return owned rows), and
//! the storage traits over it are implemented once, for every backend.

use std::collections::HashMap;

use async_trait::async_trait;
use tidemark_domain::{AccountId, Timestamp};
use uuid::Uuid;

use crate::plan::Value;
use crate::rows::Columns;
use crate::{Page, PageRequest, StoreError, TimeRange};

/// SQL text and its values, placeholders numbered in order of appearance.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Query {
    pub(crate) sql: String,
    pub(crate) values: Vec<Value>,
}

impl Query {
    pub(crate) fn new(sql: &str) -> Self {
        Self {
            sql: sql.to_owned(),
            values: Vec::new(),
        }
    }

    /// Appends SQL text.
    pub(crate) fn push(&mut self, sql: &str) -> &mut Self {
        self.sql.push_str(sql);
        self
    }

    /// Appends a placeholder bound to `value`.
    pub(crate) fn bind(&mut self, value: impl Into<Value>) -> &mut Self {
        self.values.push(value.into());
        self.sql.push_str(&format!("${}", self.values.len()));
        self
    }

    /// Appends `(…)` with a placeholder per value; `(NULL)` for none, which matches nothing.
    pub(crate) fn bind_list<V: Into<Value>>(
        &mut self,
        values: impl IntoIterator<Item = V>,
    ) -> &mut Self {
        self.sql.push('(');
        let mut any = false;
        for value in values {
            if any {
                self.sql.push_str(", ");
            }
            self.bind(value);
            any = true;
        }
        if !any {
            self.sql.push_str("NULL");
        }
        self.sql.push(')');
        self
    }
}

/// One column's value as a backend returned it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Null,
    Text(String),
    Int(i64),
    Time(Timestamp),
    Id(Uuid),
}

/// A row, owned, by column name.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct OwnedRow(pub(crate) HashMap<String, Cell>);

impl OwnedRow {
    fn cell(&self, name: &str) -> Result<&Cell, StoreError> {
        self.0
            .get(name)
            .ok_or_else(|| StoreError::corrupt(format!("column {name} missing")))
    }

    /// An integer column.
    pub(crate) fn int(&self, name: &str) -> Result<i64, StoreError> {
        match self.cell(name)? {
            Cell::Int(value) => Ok(*value),
            other => Err(StoreError::corrupt(format!("{name} is {other:?}"))),
        }
    }

    /// An integer column that may be null.
    pub(crate) fn int_opt(&self, name: &str) -> Result<Option<i64>, StoreError> {
        match self.cell(name)? {
            Cell::Null => Ok(None),
            _ => self.int(name).map(Some),
        }
    }
}

impl Columns for OwnedRow {
    fn text(&self, name: &str) -> Result<Option<String>, StoreError> {
        match self.cell(name)? {
            Cell::Null => Ok(None),
            Cell::Text(text) => Ok(Some(text.clone())),
            other => Err(StoreError::corrupt(format!("{name} is {other:?}"))),
        }
    }

    fn time(&self, name: &str) -> Result<Option<Timestamp>, StoreError> {
        match self.cell(name)? {
            Cell::Null => Ok(None),
            Cell::Time(at) => Ok(Some(*at)),
            Cell::Text(text) => Timestamp::parse_rfc3339(text)
                .map(Some)
                .map_err(|_| StoreError::corrupt(format!("{name} {text:?}"))),
            other => Err(StoreError::corrupt(format!("{name} is {other:?}"))),
        }
    }

    fn id(&self, name: &str) -> Result<Option<Uuid>, StoreError> {
        match self.cell(name)? {
            Cell::Null => Ok(None),
            Cell::Id(id) => Ok(Some(*id)),
            Cell::Text(text) => Uuid::try_parse(text)
                .map(Some)
                .map_err(|_| StoreError::corrupt(format!("{name} {text:?}"))),
            other => Err(StoreError::corrupt(format!("{name} is {other:?}"))),
        }
    }

    fn json_text(&self, name: &str) -> Result<String, StoreError> {
        self.required_text(name)
    }
}

/// What a backend provides for the queries written once.
#[async_trait]
pub(crate) trait Neutral: Send + Sync {
    /// Runs a read and returns every row.
    async fn fetch(&self, query: &Query) -> Result<Vec<OwnedRow>, StoreError>;

    /// Runs a write and returns the rows it affected.
    async fn execute(&self, query: &Query) -> Result<u64, StoreError>;

    /// What a claim's inner `SELECT` appends to lock the rows it picks without waiting
    /// for rows another claim holds (`FOR UPDATE … SKIP LOCKED` on PostgreSQL; nothing on
    /// SQLite, whose single writer serializes claims).
    fn skip_locked(&self, table_alias: &str) -> String;

    /// Runs writes in one transaction and returns the rows each affected; any failure
    /// writes nothing. (The duplicate rule of tracking requests is not decided here: no
    /// statement run this way touches their unique index.)
    async fn execute_all(&self, queries: &[Query]) -> Result<Vec<u64>, StoreError>;
}

/// Parses every row.
pub(crate) fn parse_all<T>(
    rows: Vec<OwnedRow>,
    parse: impl Fn(&OwnedRow) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    rows.iter().map(parse).collect()
}

/// Appends the bounds of `range` on `column`, if any.
pub(crate) fn push_range(query: &mut Query, column: &str, range: TimeRange) {
    if let Some(start) = range.start {
        query.push(&format!(" AND {column} >= ")).bind(start);
    }
    if let Some(end) = range.end {
        query.push(&format!(" AND {column} <= ")).bind(end);
    }
}

/// Appends `AND column IN (…)` when `values` is not empty.
pub(crate) fn push_any(query: &mut Query, column: &str, values: Vec<String>) {
    if !values.is_empty() {
        query.push(&format!(" AND {column} IN ")).bind_list(values);
    }
}

/// Runs `filter` twice: the page, newest first, and the count.
pub(crate) async fn page_of<B: Neutral + ?Sized, T>(
    backend: &B,
    select: &str,
    filter: Query,
    page: PageRequest,
    parse: impl Fn(&OwnedRow) -> Result<T, StoreError>,
) -> Result<Page<T>, StoreError> {
    page_in_order(
        backend,
        select,
        filter,
        "created_at DESC, id DESC",
        page,
        parse,
    )
    .await
}

/// Runs `filter` twice: the page, in `order`, and the count.
pub(crate) async fn page_in_order<B: Neutral + ?Sized, T>(
    backend: &B,
    select: &str,
    filter: Query,
    order: &str,
    page: PageRequest,
    parse: impl Fn(&OwnedRow) -> Result<T, StoreError>,
) -> Result<Page<T>, StoreError> {
    let mut count = Query::new("SELECT COUNT(*) AS count");
    count.push(&filter.sql);
    count.values.clone_from(&filter.values);
    let mut rows = Query::new(select);
    rows.push(&filter.sql);
    rows.values = filter.values;
    rows.push(" ORDER BY ")
        .push(order)
        .push(" LIMIT ")
        .bind(Value::Int(Some(page.limit())))
        .push(" OFFSET ")
        .bind(Value::Int(Some(page.offset())));
    let total = backend
        .fetch(&count)
        .await?
        .first()
        .map(|row| row.int("count"))
        .transpose()?
        .unwrap_or(0);
    Ok(Page {
        items: parse_all(backend.fetch(&rows).await?, parse)?,
        total: u64::try_from(total).unwrap_or(0),
    })
}

/// `from` restricted to `account`'s rows.
pub(crate) fn scoped(from: &str, account: AccountId) -> Query {
    let mut query = Query::new(from);
    query.push(" WHERE account_id = ").bind(account.as_uuid());
    query
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_follow_the_values_and_empty_lists_match_nothing() {
        let mut query = Query::new("SELECT 1 WHERE a = ");
        query.bind("x").push(" AND b IN ").bind_list(["p", "q"]);
        query.push(" AND c IN ").bind_list(Vec::<String>::new());
        assert_eq!(
            query.sql,
            "SELECT 1 WHERE a = $1 AND b IN ($2, $3) AND c IN (NULL)"
        );
        assert_eq!(query.values.len(), 3);
    }
}
