//! The one way to build a statement: SQL text with `$n` placeholders, numbered in order of
//! appearance, and the values they stand for, in neutral form. Each driver binds the values
//! in its own column types (hyphenated text and RFC 3339 text on SQLite, `uuid`,
//! `timestamptz`, `jsonb` and `bytea` on PostgreSQL).

use std::collections::BTreeMap;

use tidemark_domain::{AccountId, Timestamp};
use uuid::Uuid;

use crate::TimeRange;

/// A value to bind, in neutral form.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Text(Option<String>),
    Time(Option<Timestamp>),
    Id(Option<Uuid>),
    /// A JSON document, serialized.
    Json(Option<String>),
    Int(Option<i64>),
    Bool(Option<bool>),
    Bytes(Vec<u8>),
}

impl Value {
    /// `value` as a JSON document.
    pub(crate) fn json(value: &impl serde::Serialize) -> Self {
        // Serializing plain data (strings, timestamps, maps of strings) cannot fail.
        Self::Json(Some(
            serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned()),
        ))
    }

    /// An integer that may be absent.
    pub(crate) fn int(value: Option<impl Into<i64>>) -> Self {
        Self::Int(value.map(Into::into))
    }

    /// A value a filter or search compares stored text with. No stored text holds a NUL
    /// (every text is checked before it is written), and PostgreSQL's text cannot hold
    /// one: a text with one is compared as NULL, which nothing equals or is `LIKE`.
    pub(crate) fn sought(value: impl Into<Self>) -> Self {
        match value.into() {
            Self::Text(Some(text)) if text.contains('\0') => Self::Text(None),
            other => other,
        }
    }
}

macro_rules! value_from {
    ($($ty:ty => |$v:ident| $make:expr;)*) => {
        $(impl From<$ty> for Value {
            fn from($v: $ty) -> Self {
                $make
            }
        })*
    };
}

value_from! {
    &str => |value| Self::Text(Some(value.to_owned()));
    String => |value| Self::Text(Some(value));
    Option<String> => |value| Self::Text(value);
    Option<&str> => |value| Self::Text(value.map(str::to_owned));
    Timestamp => |value| Self::Time(Some(value));
    Option<Timestamp> => |value| Self::Time(value);
    Uuid => |value| Self::Id(Some(value));
    Option<Uuid> => |value| Self::Id(value);
    i64 => |value| Self::Int(Some(value));
    bool => |value| Self::Bool(Some(value));
    Option<bool> => |value| Self::Bool(value);
}

/// Rows one statement of [`Query::insert_rows`] takes at most: its parameters stay far
/// below either backend's limit (SQLite's 32,766, PostgreSQL's 65,535).
pub(crate) const ROWS_PER_STATEMENT: usize = 100;

/// SQL text and its values.
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

    /// A whole statement whose placeholders `values` fill in order (`$1` the first).
    pub(crate) fn with(sql: &str, values: Vec<Value>) -> Self {
        Self {
            sql: sql.to_owned(),
            values,
        }
    }

    /// `from` restricted to `account`'s rows.
    pub(crate) fn scoped(from: &str, account: AccountId) -> Self {
        Self::scoped_unindexed(from, account, "")
    }

    /// [`Query::scoped`], with `no_index` ([`super::Dialect::no_index`], or nothing) before
    /// the column, for a query that should reach the account's rows by another index.
    pub(crate) fn scoped_unindexed(from: &str, account: AccountId, no_index: &str) -> Self {
        let mut query = Self::new(from);
        query
            .push(" WHERE ")
            .push(no_index)
            .push("account_id = ")
            .bind(account.as_uuid());
        query
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

    /// `head` (`INSERT INTO t (…) VALUES `), `rows` as bound tuples, then `tail`: one
    /// statement for each [`ROWS_PER_STATEMENT`] rows, none for no rows. A unit that
    /// writes many rows of one table pays one round trip for them instead of one each.
    pub(crate) fn insert_rows(
        head: &str,
        rows: impl IntoIterator<Item = Vec<Value>>,
        tail: &str,
    ) -> Vec<Self> {
        let mut statements: Vec<Self> = Vec::new();
        let mut in_last = 0;
        for row in rows {
            match statements.last_mut() {
                Some(last) if in_last < ROWS_PER_STATEMENT => {
                    last.push(", ").bind_list(row);
                    in_last += 1;
                }
                _ => {
                    let mut next = Self::new(head);
                    next.bind_list(row);
                    statements.push(next);
                    in_last = 1;
                }
            }
        }
        for statement in &mut statements {
            statement.push(tail);
        }
        statements
    }

    /// As [`Query::insert_rows`], for an upsert (`ON CONFLICT … DO UPDATE`), which may not
    /// touch one row twice in a statement: of the rows given for one key, the last is
    /// written, as writing them one by one would leave it. Rows go in key order, so every
    /// unit takes the rows' locks in one order.
    pub(crate) fn upsert_rows<K: Ord>(
        head: &str,
        rows: impl IntoIterator<Item = (K, Vec<Value>)>,
        tail: &str,
    ) -> Vec<Self> {
        let last: BTreeMap<K, Vec<Value>> = rows.into_iter().collect();
        Self::insert_rows(head, last.into_values(), tail)
    }

    /// Appends the bounds of `range` on `column`, if any.
    pub(crate) fn push_range(&mut self, column: &str, range: TimeRange) -> &mut Self {
        if let Some(start) = range.start {
            self.push(&format!(" AND {column} >= ")).bind(start);
        }
        if let Some(end) = range.end {
            self.push(&format!(" AND {column} <= ")).bind(end);
        }
        self
    }

    /// Appends `AND column = value` when `value` is given.
    pub(crate) fn push_eq<V: Into<Value>>(&mut self, column: &str, value: Option<V>) -> &mut Self {
        if let Some(value) = value {
            self.push(&format!(" AND {column} = ")).bind(value);
        }
        self
    }

    /// Appends `AND column IN (…)` when `values` is not empty, each [`Value::sought`].
    pub(crate) fn push_any<V: Into<Value>>(
        &mut self,
        column: &str,
        values: impl IntoIterator<Item = V>,
    ) -> &mut Self {
        let mut values = values.into_iter().map(Value::sought).peekable();
        if values.peek().is_some() {
            self.push(&format!(" AND {column} IN ")).bind_list(values);
        }
        self
    }

    /// Whether the statement hands rows back (a `SELECT`, or a write with `RETURNING`).
    pub(crate) fn returns_rows(&self) -> bool {
        let sql = self.sql.trim_start();
        sql.get(..6)
            .is_some_and(|start| start.eq_ignore_ascii_case("SELECT"))
            || sql.contains(" RETURNING ")
    }

    /// The value of each placeholder of a prepared statement, by its name (`$n` or `?n`).
    pub(crate) fn value_of(&self, placeholder: &str) -> Option<&Value> {
        let number: usize = placeholder.get(1..)?.parse().ok()?;
        self.values.get(number.checked_sub(1)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_follow_the_values_and_empty_lists_match_nothing() {
        let mut query = Query::new("SELECT 1 WHERE a = ");
        query.bind("x").push(" AND b IN ").bind_list(["p", "q"]);
        query.push(" AND c IN ").bind_list(Vec::<String>::new());
        query.push_any("d", Vec::<String>::new());
        assert_eq!(
            query.sql,
            "SELECT 1 WHERE a = $1 AND b IN ($2, $3) AND c IN (NULL)"
        );
        assert_eq!(query.values.len(), 3);
        assert_eq!(query.value_of("$2"), Some(&Value::from("p")));
        assert_eq!(query.value_of("$4"), None);
        assert_eq!(query.value_of("$0"), None);
    }

    #[test]
    fn many_rows_are_inserted_a_hundred_a_statement() {
        let rows = |n: i64| (0..n).map(|i| vec![Value::from(i), Value::from("x")]);
        assert!(Query::insert_rows("INSERT INTO t (a, b) VALUES ", rows(0), "").is_empty());
        let two = Query::insert_rows(
            "INSERT INTO t (a, b) VALUES ",
            rows(2),
            " ON CONFLICT DO NOTHING",
        );
        assert_eq!(
            two.iter().map(|q| q.sql.as_str()).collect::<Vec<_>>(),
            ["INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING"]
        );
        let many = Query::insert_rows("INSERT INTO t (a, b) VALUES ", rows(201), "");
        let sizes: Vec<usize> = many.iter().map(|q| q.values.len() / 2).collect();
        assert_eq!(sizes, [ROWS_PER_STATEMENT, ROWS_PER_STATEMENT, 1]);
        assert_eq!(many[1].value_of("$1"), Some(&Value::from(100)));
        assert!(many[2].sql.ends_with("VALUES ($1, $2)"));
    }

    #[test]
    fn an_upsert_writes_the_last_row_of_each_key_in_key_order() {
        let rows = [(2_i64, "b"), (1, "a"), (2, "c")]
            .map(|(key, name)| (key, vec![Value::from(key), Value::from(name)]));
        let upsert = Query::upsert_rows("INSERT INTO t (a, b) VALUES ", rows, "");
        assert_eq!(upsert.len(), 1);
        assert_eq!(
            upsert[0].sql,
            "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)"
        );
        let written: Vec<Value> = [(1_i64, "a"), (2, "c")]
            .into_iter()
            .flat_map(|(key, name)| [Value::from(key), Value::from(name)])
            .collect();
        assert_eq!(upsert[0].values, written);
    }

    #[test]
    fn reads_and_returning_writes_hand_rows_back() {
        assert!(Query::new("SELECT 1").returns_rows());
        assert!(Query::new(" select 1").returns_rows());
        assert!(Query::new("UPDATE t SET a = 1 RETURNING id").returns_rows());
        assert!(!Query::new("UPDATE t SET a = 1").returns_rows());
        assert!(!Query::new("INSERT INTO t SELECT 1").returns_rows());
    }
}
