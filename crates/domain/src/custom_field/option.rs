//! The choices of an `enum` or `enum_multi` field: a `label` people read and a `value`
//! clients send, in an optional `position`.

use super::{Definition, MAX_OPTIONS, MAX_TEXT_CHARS};
use crate::validation::check_text;
use crate::{CustomFieldDefinitionId, CustomFieldOptionId, Field, FieldError, ValidationCode};

/// One choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldOption {
    /// Its id.
    pub id: CustomFieldOptionId,
    /// Its definition.
    pub definition_id: CustomFieldDefinitionId,
    /// What people read.
    pub label: String,
    /// What clients send; unique within the definition, never changed.
    pub value: String,
    /// Where it stands among the others (lowest first; none last).
    pub position: Option<i64>,
}

/// A new option, as a client sent it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionDraft {
    /// `label` (required).
    pub label: Option<String>,
    /// `value` (required).
    pub value: Option<String>,
    /// `position`.
    pub position: Option<i64>,
}

/// A change to an option: its `label` and `position` (its `value` is what values hold).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionChange {
    /// A new label.
    pub label: Option<String>,
    /// A new position; `Some(None)` clears it.
    pub position: Option<Option<i64>>,
}

fn required(
    field: &'static str,
    given: Option<String>,
    errors: &mut Vec<FieldError>,
) -> Option<String> {
    match given {
        Some(text) if !text.trim().is_empty() => {
            let before = errors.len();
            check_text(Field::Other(field), &text, MAX_TEXT_CHARS, errors);
            (errors.len() == before).then_some(text)
        }
        _ => {
            errors.push(FieldError::new(
                Field::Other(field),
                ValidationCode::Blank,
                format!("{field} is required"),
            ));
            None
        }
    }
}

impl OptionDraft {
    /// The option, for `definition`, which has `existing` options.
    ///
    /// # Errors
    /// Every problem: a field without options, a missing or too long label or value, a
    /// value another option has, or [`MAX_OPTIONS`] reached.
    pub fn create(
        self,
        definition: &Definition,
        existing: &[FieldOption],
    ) -> Result<FieldOption, Vec<FieldError>> {
        let mut errors = Vec::new();
        if !definition.data_type.has_options() {
            errors.push(FieldError::new(
                Field::Other("data_type"),
                ValidationCode::Invalid,
                format!(
                    "a {} field has no options; only enum and enum_multi fields do",
                    definition.data_type
                ),
            ));
        }
        if existing.len() >= MAX_OPTIONS {
            errors.push(FieldError::new(
                Field::Other("value"),
                ValidationCode::TooMany,
                format!("a field has at most {MAX_OPTIONS} options"),
            ));
        }
        let label = required("label", self.label, &mut errors);
        let value = required("value", self.value, &mut errors);
        if let Some(value) = &value
            && existing.iter().any(|o| &o.value == value)
        {
            errors.push(FieldError::new(
                Field::Other("value"),
                ValidationCode::Duplicate,
                format!("the field already has an option of value {value:?}"),
            ));
        }
        match (label, value) {
            (Some(label), Some(value)) if errors.is_empty() => Ok(FieldOption {
                id: CustomFieldOptionId::new(),
                definition_id: definition.id,
                label,
                value,
                position: self.position,
            }),
            _ => Err(errors),
        }
    }
}

impl OptionChange {
    /// `option` changed.
    ///
    /// # Errors
    /// A blank or too long label.
    pub fn apply(self, option: &FieldOption) -> Result<FieldOption, Vec<FieldError>> {
        let mut errors = Vec::new();
        let label = match self.label {
            Some(label) => required("label", Some(label), &mut errors),
            None => Some(option.label.clone()),
        };
        match label {
            Some(label) if errors.is_empty() => Ok(FieldOption {
                label,
                position: self.position.unwrap_or(option.position),
                ..option.clone()
            }),
            _ => Err(errors),
        }
    }
}
