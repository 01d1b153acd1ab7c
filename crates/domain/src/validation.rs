//! Field-level validation problems, reported all at once (api.md §1 "Errors").
//!
//! The domain names the field and the problem; the API layer turns a [`Field`] into a
//! JSON pointer and a [`ValidationCode`] into the wire `code`.

use std::fmt;

/// An attribute of a tracking request that a client writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// `request_type`
    RequestType,
    /// `request_number`
    RequestNumber,
    /// `scac`
    Scac,
    /// `auto_detect_vocc_scac`
    AutoDetectScac,
    /// `ref_numbers`, or one of its items when `Some(index)`.
    RefNumbers(Option<usize>),
    /// `shipment_tags`, or one of its items when `Some(index)`.
    ShipmentTags(Option<usize>),
    /// Any other attribute, by name (for unknown or read-only attributes).
    Other(&'static str),
    /// An item of a list attribute, by its index.
    Item(&'static str, usize),
}

impl Field {
    /// The attribute's name on the wire.
    #[must_use]
    pub const fn attribute(&self) -> &'static str {
        match self {
            Self::RequestType => "request_type",
            Self::RequestNumber => "request_number",
            Self::Scac => "scac",
            Self::AutoDetectScac => "auto_detect_vocc_scac",
            Self::RefNumbers(_) => "ref_numbers",
            Self::ShipmentTags(_) => "shipment_tags",
            Self::Other(name) | Self::Item(name, _) => name,
        }
    }

    /// The item index for list attributes.
    #[must_use]
    pub const fn index(&self) -> Option<usize> {
        match self {
            Self::RefNumbers(index) | Self::ShipmentTags(index) => *index,
            Self::Item(_, index) => Some(*index),
            _ => None,
        }
    }
}

/// What is wrong with a field; each maps to one wire `code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValidationCode {
    /// Missing, null or empty where a value is required.
    Blank,
    /// Present but not an acceptable value.
    Invalid,
    /// Longer than the limit.
    TooLong,
    /// More items than the limit.
    TooMany,
    /// A well-formed SCAC that no carrier in the matrix uses.
    UnknownScac,
    /// The carrier does not track this kind of number.
    UnsupportedRequestType,
    /// A known carrier this instance has no way to track (no endpoint, no sandbox for it).
    CarrierNotConfigured,
    /// A number that cannot be what its type says (e.g. a bad ISO 6346 check digit).
    InvalidNumber,
    /// An open request for the same number and carrier exists.
    Duplicate,
    /// The attribute cannot change after creation.
    Immutable,
    /// An `api_slug` that names none of the account's custom field definitions.
    UnknownCustomField,
}

impl ValidationCode {
    /// The wire `code`.
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::Blank => "blank",
            Self::Invalid => "invalid",
            Self::TooLong => "too_long",
            Self::TooMany => "too_many",
            Self::UnknownScac => "unknown_scac",
            Self::UnsupportedRequestType => "unsupported_request_type",
            Self::CarrierNotConfigured => "carrier_not_configured",
            Self::InvalidNumber => "invalid_number",
            Self::Duplicate => "duplicate",
            Self::Immutable => "immutable",
            Self::UnknownCustomField => "unknown_custom_field",
        }
    }
}

/// One problem with one field, with a sentence a person can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Which field.
    pub field: Field,
    /// What kind of problem.
    pub code: ValidationCode,
    /// A human-readable explanation.
    pub detail: String,
}

impl FieldError {
    /// A problem with `field`.
    #[must_use]
    pub fn new(field: Field, code: ValidationCode, detail: impl Into<String>) -> Self {
        Self {
            field,
            code,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field.attribute(), self.detail)
    }
}

/// Checks a free-text value a client sent: no control characters, at most `max` characters.
pub(crate) fn check_text(field: Field, value: &str, max: usize, errors: &mut Vec<FieldError>) {
    let length = value.chars().count();
    if length > max {
        errors.push(FieldError::new(
            field,
            ValidationCode::TooLong,
            format!("is {length} characters long; the maximum is {max}"),
        ));
    } else if value.chars().any(char::is_control) {
        errors.push(FieldError::new(
            field,
            ValidationCode::Invalid,
            "must not contain control characters",
        ));
    }
}
