//! The one way to decode a row: every driver hands back [`Row`]s of neutral [`Cell`]s, and
//! the aggregates read them by column name.

use std::sync::Arc;

use tidemark_domain::Timestamp;
use uuid::Uuid;

use crate::StoreError;

/// One column's value as a driver returned it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Null,
    Text(String),
    Int(i64),
    Time(Timestamp),
    Id(Uuid),
    Bytes(Vec<u8>),
}

/// A row: its statement's column names (shared by its rows) and its cells.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    names: Arc<[String]>,
    cells: Vec<Cell>,
}

fn wrong(name: &str, cell: &Cell) -> StoreError {
    StoreError::corrupt(format!("{name} is {cell:?}"))
}

fn null(name: &str) -> StoreError {
    StoreError::corrupt(format!("{name} is null"))
}

impl Row {
    pub(crate) fn new(names: Arc<[String]>, cells: Vec<Cell>) -> Self {
        Self { names, cells }
    }

    fn cell(&self, name: &str) -> Result<&Cell, StoreError> {
        self.names
            .iter()
            .position(|column| column == name)
            .and_then(|index| self.cells.get(index))
            .ok_or_else(|| StoreError::corrupt(format!("column {name} missing")))
    }

    /// A text column.
    pub(crate) fn text(&self, name: &str) -> Result<Option<String>, StoreError> {
        match self.cell(name)? {
            Cell::Null => Ok(None),
            Cell::Text(text) => Ok(Some(text.clone())),
            other => Err(wrong(name, other)),
        }
    }

    /// An integer column that may be null.
    pub(crate) fn int_opt(&self, name: &str) -> Result<Option<i64>, StoreError> {
        match self.cell(name)? {
            Cell::Null => Ok(None),
            Cell::Int(value) => Ok(Some(*value)),
            other => Err(wrong(name, other)),
        }
    }

    /// A time column.
    pub(crate) fn time(&self, name: &str) -> Result<Option<Timestamp>, StoreError> {
        match self.cell(name)? {
            Cell::Null => Ok(None),
            Cell::Time(at) => Ok(Some(*at)),
            Cell::Text(text) => Timestamp::parse_rfc3339(text)
                .map(Some)
                .map_err(|_| StoreError::corrupt(format!("{name} {text:?}"))),
            other => Err(wrong(name, other)),
        }
    }

    /// An id column.
    pub(crate) fn id(&self, name: &str) -> Result<Option<Uuid>, StoreError> {
        match self.cell(name)? {
            Cell::Null => Ok(None),
            Cell::Id(id) => Ok(Some(*id)),
            Cell::Text(text) => Uuid::try_parse(text)
                .map(Some)
                .map_err(|_| StoreError::corrupt(format!("{name} {text:?}"))),
            other => Err(wrong(name, other)),
        }
    }

    /// A binary column that may not be null.
    pub(crate) fn bytes(&self, name: &str) -> Result<&[u8], StoreError> {
        match self.cell(name)? {
            Cell::Bytes(bytes) => Ok(bytes),
            Cell::Text(text) => Ok(text.as_bytes()),
            other => Err(wrong(name, other)),
        }
    }

    /// A text column that may not be null.
    pub(crate) fn required_text(&self, name: &str) -> Result<String, StoreError> {
        self.text(name)?.ok_or_else(|| null(name))
    }

    /// A time column that may not be null.
    pub(crate) fn required_time(&self, name: &str) -> Result<Timestamp, StoreError> {
        self.time(name)?.ok_or_else(|| null(name))
    }

    /// An id column that may not be null.
    pub(crate) fn required_id(&self, name: &str) -> Result<Uuid, StoreError> {
        self.id(name)?.ok_or_else(|| null(name))
    }

    /// An integer column that may not be null.
    pub(crate) fn int(&self, name: &str) -> Result<i64, StoreError> {
        self.int_opt(name)?.ok_or_else(|| null(name))
    }

    /// A boolean column (an integer on SQLite).
    pub(crate) fn bool(&self, name: &str) -> Result<bool, StoreError> {
        self.int(name).map(|value| value != 0)
    }

    /// A JSON column, parsed.
    pub(crate) fn json<T: serde::de::DeserializeOwned>(&self, name: &str) -> Result<T, StoreError> {
        let text = self.required_text(name)?;
        serde_json::from_str(&text).map_err(|_| StoreError::corrupt(format!("{name} {text:?}")))
    }

    /// A column parsed by `parse`, which may not be null.
    pub(crate) fn parsed<T>(
        &self,
        name: &str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<T, StoreError> {
        let text = self.required_text(name)?;
        parse(&text).ok_or_else(|| StoreError::corrupt(format!("{name} {text:?}")))
    }

    /// A column parsed by `parse`, or `None` when null.
    pub(crate) fn parsed_opt<T>(
        &self,
        name: &str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<Option<T>, StoreError> {
        self.text(name)?
            .map(|text| parse(&text).ok_or_else(|| StoreError::corrupt(format!("{name} {text:?}"))))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> Row {
        let names: Arc<[String]> = ["id", "n", "at", "gone"].map(str::to_owned).into();
        Row::new(
            names,
            vec![
                Cell::Text("0192e0a4-7b1c-7000-8000-000000000001".to_owned()),
                Cell::Int(3),
                Cell::Text("2026-11-24T10:00:00.000000Z".to_owned()),
                Cell::Null,
            ],
        )
    }

    #[test]
    fn columns_decode_by_name_and_wrong_or_missing_ones_are_corrupt() {
        let row = row();
        assert!(row.required_id("id").is_ok());
        assert_eq!(row.int("n").ok(), Some(3));
        assert!(row.bool("n").is_ok_and(|flag| flag));
        assert!(row.required_time("at").is_ok());
        assert!(row.text("gone").is_ok_and(|text| text.is_none()));
        assert!(matches!(
            row.required_text("gone"),
            Err(StoreError::Corrupt(_))
        ));
        assert!(matches!(row.text("n"), Err(StoreError::Corrupt(_))));
        assert!(matches!(row.int("missing"), Err(StoreError::Corrupt(_))));
        assert!(matches!(row.time("id"), Err(StoreError::Corrupt(_))));
    }
}
