//! A custom field's value on one record, checked against its definition's data type and
//! options, and what a person reads of it (`display_value`).

use serde_json::{Number, Value};
use time::Date;
use uuid::Uuid;

use super::{DataType, FieldOption, MAX_CHOICES, MAX_TEXT_CHARS};
use crate::{AccountId, CustomFieldDefinitionId, CustomFieldId, Timestamp};

/// A value, as its data type reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    /// `short_text`.
    Text(String),
    /// `number`.
    Number(Number),
    /// `date`.
    Date(Date),
    /// `datetime`.
    DateTime(Timestamp),
    /// `boolean`.
    Boolean(bool),
    /// `enum`: an option's `value`.
    Choice(String),
    /// `enum_multi`: options' `value`s, each once, in the order given.
    Choices(Vec<String>),
    /// `reference`: a record's id.
    Reference(String),
}

/// Why a value does not fit its definition: a detail for the client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ValueError(pub String);

fn refused(detail: impl Into<String>) -> ValueError {
    ValueError(detail.into())
}

/// A day written `YYYY-MM-DD`.
fn day(text: &str) -> Option<Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(text, format).ok()
}

/// Text of at most [`MAX_TEXT_CHARS`] characters without control characters.
fn text(value: &Value, what: &str) -> Result<String, ValueError> {
    let Some(text) = value.as_str() else {
        return Err(refused(format!("{what} must be a string")));
    };
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(refused(format!(
            "{what} is at most {MAX_TEXT_CHARS} characters"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(refused(format!("{what} has no control characters")));
    }
    if text.trim().is_empty() {
        return Err(refused(format!("{what} must not be blank")));
    }
    Ok(text.to_owned())
}

/// The option whose `value` is `given`.
fn choice<'o>(given: &Value, options: &'o [FieldOption]) -> Result<&'o FieldOption, ValueError> {
    let given = given
        .as_str()
        .ok_or_else(|| refused("a choice is the value of one of the field's options"))?;
    options
        .iter()
        .find(|option| option.value == given)
        .ok_or_else(|| {
            let known: Vec<&str> = options.iter().map(|o| o.value.as_str()).collect();
            refused(format!(
                "{given:?} is not an option of this field; its options are {known:?}"
            ))
        })
}

impl FieldValue {
    /// Reads `given` as a value of `data_type`, choices among `options`.
    ///
    /// # Errors
    /// What does not fit, for the client to read.
    pub fn parse(
        data_type: DataType,
        given: &Value,
        options: &[FieldOption],
    ) -> Result<Self, ValueError> {
        match data_type {
            DataType::ShortText => text(given, "a short_text value").map(Self::Text),
            DataType::Reference => text(given, "a reference (a record's id)").map(Self::Reference),
            DataType::Number => match given {
                Value::Number(number) if number.as_f64().is_some_and(f64::is_finite) => {
                    Ok(Self::Number(number.clone()))
                }
                _ => Err(refused("a number value is a JSON number")),
            },
            DataType::Date => given
                .as_str()
                .and_then(day)
                .map(Self::Date)
                .ok_or_else(|| refused("a date value is a day written YYYY-MM-DD")),
            DataType::DateTime => given
                .as_str()
                .and_then(|text| Timestamp::parse_rfc3339(text).ok())
                .map(Self::DateTime)
                .ok_or_else(|| refused("a datetime value is an RFC 3339 time")),
            DataType::Boolean => given
                .as_bool()
                .map(Self::Boolean)
                .ok_or_else(|| refused("a boolean value is true or false")),
            DataType::Enum => choice(given, options).map(|o| Self::Choice(o.value.clone())),
            DataType::EnumMulti => {
                let Some(items) = given.as_array() else {
                    return Err(refused("an enum_multi value is an array of option values"));
                };
                if items.len() > MAX_CHOICES {
                    return Err(refused(format!("at most {MAX_CHOICES} choices")));
                }
                let mut chosen: Vec<String> = Vec::with_capacity(items.len());
                for item in items {
                    let option = choice(item, options)?;
                    if !chosen.contains(&option.value) {
                        chosen.push(option.value.clone());
                    }
                }
                Ok(Self::Choices(chosen))
            }
        }
    }

    /// Reads `text` as a person types it in a form: a number, `yes`/`no` (or
    /// `true`/`false`), a day, a time, an option's value, options' values separated by
    /// commas, or text.
    ///
    /// # Errors
    /// As [`FieldValue::parse`].
    pub fn from_text(
        data_type: DataType,
        text: &str,
        options: &[FieldOption],
    ) -> Result<Self, ValueError> {
        let text = text.trim();
        let given = match data_type {
            DataType::Number => text
                .parse::<Number>()
                .map(Value::Number)
                .map_err(|_| refused("a number value is a number, such as 12 or 12.5"))?,
            DataType::Boolean => match text.to_ascii_lowercase().as_str() {
                "yes" | "true" => Value::Bool(true),
                "no" | "false" => Value::Bool(false),
                _ => return Err(refused("a boolean value is yes or no")),
            },
            DataType::EnumMulti => Value::Array(
                text.split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .map(|item| Value::String(item.to_owned()))
                    .collect(),
            ),
            _ => Value::String(text.to_owned()),
        };
        Self::parse(data_type, &given, options)
    }

    /// The value as a form shows it for editing ([`FieldValue::from_text`] reads it back).
    #[must_use]
    pub fn to_text(&self) -> String {
        match self {
            Self::Boolean(true) => "yes".to_owned(),
            Self::Boolean(false) => "no".to_owned(),
            Self::Choices(values) => values.join(", "),
            other => other.display(&[]),
        }
    }

    /// A value as stored (checked when it was set), read as `data_type`; `None` when it
    /// does not read as one (the definition's type cannot change, so never in practice).
    #[must_use]
    pub fn from_stored(data_type: DataType, stored: &Value) -> Option<Self> {
        match data_type {
            DataType::Enum => stored.as_str().map(|s| Self::Choice(s.to_owned())),
            DataType::EnumMulti => stored.as_array().map(|items| {
                Self::Choices(
                    items
                        .iter()
                        .filter_map(|i| i.as_str().map(str::to_owned))
                        .collect(),
                )
            }),
            _ => Self::parse(data_type, stored, &[]).ok(),
        }
    }

    /// The value as JSON, as clients send it.
    #[must_use]
    pub fn to_json(&self) -> Value {
        match self {
            Self::Text(text) | Self::Choice(text) | Self::Reference(text) => {
                Value::String(text.clone())
            }
            Self::Number(number) => Value::Number(number.clone()),
            Self::Date(day) => Value::String(day.to_string()),
            Self::DateTime(at) => Value::String(at.to_string()),
            Self::Boolean(flag) => Value::Bool(*flag),
            Self::Choices(values) => {
                Value::Array(values.iter().map(|v| Value::String(v.clone())).collect())
            }
        }
    }

    /// What a person reads: the text, the number, the day, the time, `Yes` or `No`, the
    /// options' labels.
    #[must_use]
    pub fn display(&self, options: &[FieldOption]) -> String {
        let label = |value: &str| {
            options
                .iter()
                .find(|o| o.value == value)
                .map_or_else(|| value.to_owned(), |o| o.label.clone())
        };
        match self {
            Self::Text(text) | Self::Reference(text) => text.clone(),
            Self::Number(number) => number.to_string(),
            Self::Date(day) => day.to_string(),
            Self::DateTime(at) => at.to_string(),
            Self::Boolean(true) => "Yes".to_owned(),
            Self::Boolean(false) => "No".to_owned(),
            Self::Choice(value) => label(value),
            Self::Choices(values) => values
                .iter()
                .map(|v| label(v))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// Whether it chooses the option of value `value`.
    #[must_use]
    pub fn chooses(&self, value: &str) -> bool {
        match self {
            Self::Choice(chosen) => chosen == value,
            Self::Choices(chosen) => chosen.iter().any(|c| c == value),
            _ => false,
        }
    }
}

/// A custom field's value on one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomField {
    /// Its id.
    pub id: CustomFieldId,
    /// The owning account.
    pub account_id: AccountId,
    /// Its definition.
    pub definition_id: CustomFieldDefinitionId,
    /// The record's kind (the definition's entity type).
    pub entity_type: super::EntityType,
    /// The record's id.
    pub entity_id: Uuid,
    /// The value.
    pub value: FieldValue,
    /// When it was first set.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::CustomFieldOptionId;

    fn options() -> Vec<FieldOption> {
        ["air", "sea"]
            .iter()
            .enumerate()
            .map(|(i, value)| FieldOption {
                id: CustomFieldOptionId::new(),
                definition_id: CustomFieldDefinitionId::new(),
                label: value.to_uppercase(),
                value: (*value).to_owned(),
                position: Some(i64::try_from(i).unwrap_or(0)),
            })
            .collect()
    }

    #[test]
    fn each_type_takes_its_own_values_and_reads_them_back() {
        let options = options();
        for (kind, given, shown) in [
            (DataType::ShortText, json!("PO-7"), "PO-7"),
            (DataType::Number, json!(12.5), "12.5"),
            (DataType::Date, json!("2026-01-31"), "2026-01-31"),
            (
                DataType::DateTime,
                json!("2026-01-31T10:00:00Z"),
                "2026-01-31T10:00:00Z",
            ),
            (DataType::Boolean, json!(true), "Yes"),
            (DataType::Enum, json!("sea"), "SEA"),
            (
                DataType::EnumMulti,
                json!(["sea", "air", "sea"]),
                "SEA, AIR",
            ),
            (DataType::Reference, json!("01a2"), "01a2"),
        ] {
            let value = FieldValue::parse(kind, &given, &options).expect("fits");
            assert_eq!(value.display(&options), shown, "{kind}");
            assert_eq!(
                FieldValue::from_stored(kind, &value.to_json()),
                Some(value),
                "{kind}"
            );
        }
    }

    #[test]
    fn typed_text_reads_as_its_type_and_back() {
        let options = options();
        for (kind, typed) in [
            (DataType::ShortText, "PO-7"),
            (DataType::Number, "12.5"),
            (DataType::Date, "2026-01-31"),
            (DataType::Boolean, "yes"),
            (DataType::Enum, "sea"),
            (DataType::EnumMulti, "sea, air"),
        ] {
            let value = FieldValue::from_text(kind, typed, &options).expect("fits");
            assert_eq!(value.to_text(), typed, "{kind}");
        }
        assert!(FieldValue::from_text(DataType::Number, "twelve", &options).is_err());
        assert!(FieldValue::from_text(DataType::Boolean, "maybe", &options).is_err());
    }

    #[test]
    fn a_value_of_another_shape_is_refused_with_a_reason() {
        let options = options();
        for (kind, given) in [
            (DataType::ShortText, json!(7)),
            (DataType::ShortText, json!("x".repeat(MAX_TEXT_CHARS + 1))),
            (DataType::ShortText, json!("  ")),
            (DataType::Number, json!("12")),
            (DataType::Date, json!("31/01/2026")),
            (DataType::DateTime, json!("2026-01-31")),
            (DataType::Boolean, json!("yes")),
            (DataType::Enum, json!("rail")),
            (DataType::EnumMulti, json!("sea")),
            (DataType::EnumMulti, json!(["sea", "rail"])),
            (DataType::Reference, json!(null)),
        ] {
            assert!(
                FieldValue::parse(kind, &given, &options).is_err(),
                "{kind}: {given}"
            );
        }
    }
}
