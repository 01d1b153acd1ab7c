//! One statement on a rusqlite connection, for the readers and the writer alike: neutral
//! values bound to their numbered placeholders, rows decoded to neutral cells.

use std::sync::Arc;

use rusqlite::Connection;
use rusqlite::types::{Value as Sql, ValueRef};
use tidemark_domain::Timestamp;
use time::macros::format_description;

use crate::StoreError;
use crate::db::{Cell, Done, Query, Row, Value};

/// Times are stored as fixed-width RFC 3339 text, which sorts in time order.
pub(super) fn time_text(at: Timestamp) -> String {
    let format =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]Z");
    at.as_datetime().format(&format).unwrap_or_default()
}

/// A neutral value as SQLite stores it.
fn sql_value(value: &Value) -> Sql {
    match value {
        Value::Text(text) => text.clone().map_or(Sql::Null, Sql::Text),
        Value::Time(at) => at.map_or(Sql::Null, |at| Sql::Text(time_text(at))),
        Value::Id(id) => id.map_or(Sql::Null, |id| Sql::Text(id.hyphenated().to_string())),
        Value::Json(json) => json.clone().map_or(Sql::Null, Sql::Text),
        Value::Int(number) => number.map_or(Sql::Null, Sql::Integer),
        Value::Bool(flag) => flag.map_or(Sql::Null, |flag| Sql::Integer(i64::from(flag))),
        Value::Bytes(bytes) => Sql::Blob(bytes.clone()),
    }
}

fn cell(value: ValueRef<'_>) -> Cell {
    match value {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(number) => Cell::Int(number),
        ValueRef::Real(number) => Cell::Text(number.to_string()),
        ValueRef::Text(bytes) => Cell::Text(match std::str::from_utf8(bytes) {
            Ok(text) => text.to_owned(),
            Err(_) => String::from_utf8_lossy(bytes).into_owned(),
        }),
        ValueRef::Blob(bytes) => Cell::Bytes(bytes.to_vec()),
    }
}

/// Runs `query` on `connection`: its rows, and the rows it wrote (or returned).
pub(super) fn run(connection: &Connection, query: &Query) -> Result<Done, StoreError> {
    let mut statement = connection.prepare_cached(&query.sql)?;
    // Placeholders are bound by their number (`$2` may come before `$1` in the text).
    for index in 1..=statement.parameter_count() {
        let value = statement
            .parameter_name(index)
            .and_then(|name| query.value_of(name))
            .map(sql_value)
            .ok_or_else(|| StoreError::corrupt(format!("no value for parameter {index}")))?;
        statement.raw_bind_parameter(index, value)?;
    }
    let width = statement.column_count();
    let names: Arc<[String]> = statement
        .column_names()
        .into_iter()
        .map(str::to_owned)
        .collect();
    let mut rows = Vec::new();
    let mut cursor = statement.raw_query();
    while let Some(row) = cursor.next()? {
        let mut cells = Vec::with_capacity(width);
        for index in 0..width {
            cells.push(cell(row.get_ref(index)?));
        }
        rows.push(Row::new(Arc::clone(&names), cells));
    }
    drop(cursor);
    let affected = if width == 0 {
        connection.changes()
    } else {
        u64::try_from(rows.len()).unwrap_or(u64::MAX)
    };
    Ok(Done { affected, rows })
}
