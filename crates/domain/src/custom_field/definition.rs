//! A custom field definition: which records it is on, its slug and name, its data type,
//! and what is kept with it as given (`validation`, `default_format`); a default value
//! checked like any value; and whether its values are reference numbers, found by search.

use serde_json::Value;

use super::{
    ApiSlug, DataType, EntityType, FieldOption, FieldValue, MAX_DEFINITIONS, MAX_DESCRIPTION_CHARS,
    MAX_TEXT_CHARS, MAX_VALIDATION_BYTES,
};
use crate::validation::check_text;
use crate::{AccountId, CustomFieldDefinitionId, Field, FieldError, Timestamp, ValidationCode};

/// A field an account defines.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// Its id.
    pub id: CustomFieldDefinitionId,
    /// The owning account.
    pub account_id: AccountId,
    /// The records its values are on.
    pub entity_type: EntityType,
    /// How clients name it; unique among the account's definitions of its entity type.
    pub api_slug: ApiSlug,
    /// What people read.
    pub display_name: String,
    /// What it is for.
    pub description: Option<String>,
    /// What its values are.
    pub data_type: DataType,
    /// What a `reference` value names, as the client wrote it.
    pub reference_type: Option<String>,
    /// The client's validation settings, kept as given (a JSON object).
    pub validation: Option<Value>,
    /// The client's display format, kept as given.
    pub default_format: Option<String>,
    /// The value a record shows without one of its own.
    pub default_value: Option<FieldValue>,
    /// Whether its values are reference numbers: found by search like the built-in ones.
    pub reference_number: bool,
    /// When it was made.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

/// A new definition, as a client sent it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DefinitionDraft {
    /// `entity_type` (required).
    pub entity_type: Option<String>,
    /// `api_slug` (required).
    pub api_slug: Option<String>,
    /// `display_name` (required).
    pub display_name: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `data_type` (required).
    pub data_type: Option<String>,
    /// `reference_type`.
    pub reference_type: Option<String>,
    /// `validation`.
    pub validation: Option<Value>,
    /// `default_format`.
    pub default_format: Option<String>,
    /// `default_value`.
    pub default_value: Option<Value>,
    /// `reference_number`.
    pub reference_number: Option<bool>,
}

/// A change to a definition; `Some(None)` clears a member. Its entity type, slug and data
/// type never change: values are held to them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DefinitionChange {
    /// `display_name`.
    pub display_name: Option<String>,
    /// `description`.
    pub description: Option<Option<String>>,
    /// `validation`.
    pub validation: Option<Option<Value>>,
    /// `default_format`.
    pub default_format: Option<Option<String>>,
    /// `default_value`.
    pub default_value: Option<Option<Value>>,
    /// `reference_number`.
    pub reference_number: Option<bool>,
}

fn problem(field: &'static str, code: ValidationCode, detail: impl Into<String>) -> FieldError {
    FieldError::new(Field::Other(field), code, detail)
}

fn blank(field: &'static str) -> FieldError {
    problem(field, ValidationCode::Blank, format!("{field} is required"))
}

/// `given` read by `parse`; a problem of `field` when it is absent or does not read.
fn required<T>(
    field: &'static str,
    given: Option<String>,
    errors: &mut Vec<FieldError>,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Option<T> {
    let Some(text) = given else {
        errors.push(blank(field));
        return None;
    };
    parse(&text)
        .map_err(|detail| errors.push(problem(field, ValidationCode::Invalid, detail)))
        .ok()
}

/// `text`, when it fits `max` characters without control characters.
fn fitting(
    field: &'static str,
    text: Option<String>,
    max: usize,
    errors: &mut Vec<FieldError>,
) -> Option<String> {
    let text = text.filter(|t| !t.trim().is_empty())?;
    let before = errors.len();
    check_text(Field::Other(field), &text, max, errors);
    (errors.len() == before).then_some(text)
}

fn validation(given: Option<Value>, errors: &mut Vec<FieldError>) -> Option<Value> {
    match given {
        None | Some(Value::Null) => None,
        Some(Value::Object(object)) => {
            let size = serde_json::to_vec(&object).map_or(usize::MAX, |b| b.len());
            if size > MAX_VALIDATION_BYTES {
                errors.push(problem(
                    "validation",
                    ValidationCode::TooLong,
                    format!("validation is at most {MAX_VALIDATION_BYTES} bytes of JSON"),
                ));
                return None;
            }
            Some(Value::Object(object))
        }
        Some(_) => {
            errors.push(problem(
                "validation",
                ValidationCode::Invalid,
                "validation is an object",
            ));
            None
        }
    }
}

/// `given` as a default of `data_type` among `options`.
fn default_value(
    data_type: DataType,
    given: Option<Value>,
    options: &[FieldOption],
    errors: &mut Vec<FieldError>,
) -> Option<FieldValue> {
    let given = given.filter(|v| !v.is_null())?;
    FieldValue::parse(data_type, &given, options)
        .map_err(|error| {
            let detail = if data_type.has_options() && options.is_empty() {
                "an enum field's default is one of its options: add them first, then set \
                 default_value"
                    .to_owned()
            } else {
                error.0
            };
            errors.push(problem("default_value", ValidationCode::Invalid, detail));
        })
        .ok()
}

impl DefinitionDraft {
    /// The definition, for `account`, which has `existing` definitions, at `now`.
    ///
    /// # Errors
    /// Every problem, each with its field.
    pub fn create(
        self,
        account: AccountId,
        existing: usize,
        now: Timestamp,
    ) -> Result<Definition, Vec<FieldError>> {
        let mut errors = Vec::new();
        if existing >= MAX_DEFINITIONS {
            errors.push(problem(
                "api_slug",
                ValidationCode::TooMany,
                format!("an account has at most {MAX_DEFINITIONS} custom field definitions"),
            ));
        }
        let entity_type = required("entity_type", self.entity_type, &mut errors, |text| {
            EntityType::parse(text)
                .ok_or_else(|| "entity_type is Shipment, Container or TrackingRequest".to_owned())
        });
        let data_type = required("data_type", self.data_type, &mut errors, |text| {
            DataType::parse(text).ok_or_else(|| {
                "data_type is short_text, number, date, datetime, boolean, enum, enum_multi \
                 or reference"
                    .to_owned()
            })
        });
        let api_slug = required("api_slug", self.api_slug, &mut errors, ApiSlug::parse);
        let display_name = fitting(
            "display_name",
            self.display_name,
            MAX_TEXT_CHARS,
            &mut errors,
        );
        if display_name.is_none()
            && !errors
                .iter()
                .any(|e| e.field == Field::Other("display_name"))
        {
            errors.push(blank("display_name"));
        }
        let description = fitting(
            "description",
            self.description,
            MAX_DESCRIPTION_CHARS,
            &mut errors,
        );
        let reference_type = fitting("reference_type", self.reference_type, 64, &mut errors);
        let default_format = fitting("default_format", self.default_format, 64, &mut errors);
        let validation = validation(self.validation, &mut errors);
        let default_value =
            data_type.and_then(|kind| default_value(kind, self.default_value, &[], &mut errors));
        match (entity_type, api_slug, display_name, data_type) {
            (Some(entity_type), Some(api_slug), Some(display_name), Some(data_type))
                if errors.is_empty() =>
            {
                Ok(Definition {
                    id: CustomFieldDefinitionId::new(),
                    account_id: account,
                    entity_type,
                    api_slug,
                    display_name,
                    description,
                    data_type,
                    reference_type,
                    validation,
                    default_format,
                    default_value,
                    reference_number: self.reference_number.unwrap_or(false),
                    created_at: now,
                    updated_at: now,
                })
            }
            _ => Err(errors),
        }
    }
}

impl DefinitionChange {
    /// `definition`, whose options are `options`, changed at `now`.
    ///
    /// # Errors
    /// Every problem, each with its field.
    pub fn apply(
        self,
        definition: &Definition,
        options: &[FieldOption],
        now: Timestamp,
    ) -> Result<Definition, Vec<FieldError>> {
        let mut errors = Vec::new();
        let display_name = match self.display_name {
            None => Some(definition.display_name.clone()),
            Some(name) => {
                let fit = fitting("display_name", Some(name), MAX_TEXT_CHARS, &mut errors);
                if fit.is_none() && errors.is_empty() {
                    errors.push(blank("display_name"));
                }
                fit
            }
        };
        let kind = definition.data_type;
        let changed = Definition {
            description: self.description.map_or_else(
                || definition.description.clone(),
                |d| fitting("description", d, MAX_DESCRIPTION_CHARS, &mut errors),
            ),
            validation: self.validation.map_or_else(
                || definition.validation.clone(),
                |v| validation(v, &mut errors),
            ),
            default_format: self.default_format.map_or_else(
                || definition.default_format.clone(),
                |f| fitting("default_format", f, 64, &mut errors),
            ),
            default_value: self.default_value.map_or_else(
                || definition.default_value.clone(),
                |v| default_value(kind, v, options, &mut errors),
            ),
            reference_number: self.reference_number.unwrap_or(definition.reference_number),
            updated_at: now,
            ..definition.clone()
        };
        match display_name {
            Some(display_name) if errors.is_empty() => Ok(Definition {
                display_name,
                ..changed
            }),
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests;
