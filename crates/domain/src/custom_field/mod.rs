//! Custom fields (compat-api.md §10): fields an account defines for its shipments,
//! containers or tracking requests ([`Definition`]), the choices of an `enum` field
//! ([`FieldOption`]), and a field's value on one record ([`CustomField`]), checked against
//! its definition's data type ([`FieldValue`]). The limits are here, each enforced where
//! the thing it limits is made.

mod definition;
mod option;
mod slug;
mod staged;
mod value;

pub use definition::{Definition, DefinitionChange, DefinitionDraft};
pub use option::{FieldOption, OptionChange, OptionDraft};
pub use slug::ApiSlug;
pub use staged::{Staged, StagedTarget, staged_values};
pub use value::{CustomField, FieldValue, ValueError};

use std::fmt;

/// The most definitions an account may have.
pub const MAX_DEFINITIONS: usize = 200;
/// The most options a definition may have.
pub const MAX_OPTIONS: usize = 200;
/// The longest text value, option value or label, in characters.
pub const MAX_TEXT_CHARS: usize = 255;
/// The longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1000;
/// The most choices an `enum_multi` value holds.
pub const MAX_CHOICES: usize = 50;
/// The largest `validation` object, in bytes of JSON.
pub const MAX_VALIDATION_BYTES: usize = 2048;

/// What kind of record a definition's values are on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntityType {
    /// A shipment.
    Shipment,
    /// A container.
    Container,
    /// A tracking request.
    TrackingRequest,
}

impl EntityType {
    /// Every kind.
    pub const ALL: [Self; 3] = [Self::Shipment, Self::Container, Self::TrackingRequest];

    /// The reference's name (`Shipment`, `Container`, `TrackingRequest`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Shipment => "Shipment",
            Self::Container => "Container",
            Self::TrackingRequest => "TrackingRequest",
        }
    }

    /// The JSON:API type of its records (`shipment`, `container`, `tracking_request`).
    #[must_use]
    pub const fn resource_type(self) -> &'static str {
        match self {
            Self::Shipment => "shipment",
            Self::Container => "container",
            Self::TrackingRequest => "tracking_request",
        }
    }

    /// Parses the reference's name, or a record's JSON:API type.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text || kind.resource_type() == text)
    }
}

impl fmt::Display for EntityType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a definition's values are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataType {
    /// Text of at most [`MAX_TEXT_CHARS`] characters.
    ShortText,
    /// A finite number.
    Number,
    /// A day, `YYYY-MM-DD`.
    Date,
    /// A time, RFC 3339.
    DateTime,
    /// `true` or `false`.
    Boolean,
    /// One of the definition's options, by its `value`.
    Enum,
    /// Some of the definition's options, by their `value`s.
    EnumMulti,
    /// The id of another record (of the definition's `reference_type`).
    Reference,
}

impl DataType {
    /// Every type.
    pub const ALL: [Self; 8] = [
        Self::ShortText,
        Self::Number,
        Self::Date,
        Self::DateTime,
        Self::Boolean,
        Self::Enum,
        Self::EnumMulti,
        Self::Reference,
    ];

    /// Its wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ShortText => "short_text",
            Self::Number => "number",
            Self::Date => "date",
            Self::DateTime => "datetime",
            Self::Boolean => "boolean",
            Self::Enum => "enum",
            Self::EnumMulti => "enum_multi",
            Self::Reference => "reference",
        }
    }

    /// Parses a wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }

    /// Whether its values are choices among options.
    #[must_use]
    pub const fn has_options(self) -> bool {
        matches!(self, Self::Enum | Self::EnumMulti)
    }
}

impl fmt::Display for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for kind in EntityType::ALL {
            assert_eq!(EntityType::parse(kind.as_str()), Some(kind));
            assert_eq!(EntityType::parse(kind.resource_type()), Some(kind));
        }
        for kind in DataType::ALL {
            assert_eq!(DataType::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(EntityType::parse("Vessel"), None);
        assert_eq!(DataType::parse("text"), None);
    }
}
