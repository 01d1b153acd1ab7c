//! The number a client asks Tidemark to track, and what kind of number it is.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The kinds of number a tracking request can carry (api.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestType {
    /// A carrier's master bill of lading.
    BillOfLading,
    /// A carrier's booking number.
    BookingNumber,
    /// An ISO 6346 container number.
    Container,
}

impl RequestType {
    /// Every request type, in the order the API lists them.
    pub const ALL: [Self; 3] = [Self::BillOfLading, Self::BookingNumber, Self::Container];

    /// The wire name.
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::BillOfLading => "bill_of_lading",
            Self::BookingNumber => "booking_number",
            Self::Container => "container",
        }
    }

    /// Parses the wire name (exact, lower case).
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }
}

impl fmt::Display for RequestType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A request number as the client wrote it (without surrounding spaces, tabs and line
/// breaks) and in the form used for matching duplicates: upper case, inner spaces removed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RequestNumber {
    display: String,
    normalized: String,
}

/// Why a string cannot be a request number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidRequestNumber {
    /// Empty after trimming.
    #[error("must not be blank")]
    Blank,
    /// Longer than the configured limit.
    #[error("is {length} characters long; the maximum is {max}")]
    TooLong {
        /// Characters in the trimmed number.
        length: usize,
        /// The limit.
        max: usize,
    },
    /// A character no carrier uses in its numbers.
    #[error("may contain only letters A-Z, digits, spaces and - / . _ (found {found:?})")]
    Character {
        /// The first offending character.
        found: char,
    },
}

impl RequestNumber {
    /// Parses a request number of at most `max_chars` characters as sent.
    ///
    /// # Errors
    /// When the number is blank, too long or contains a character outside
    /// ASCII letters, digits, spaces and `- / . _`.
    pub fn parse(text: &str, max_chars: usize) -> Result<Self, InvalidRequestNumber> {
        let length = text.chars().count();
        let display = text.trim_matches([' ', '\t', '\r', '\n']);
        if display.is_empty() {
            return Err(InvalidRequestNumber::Blank);
        }
        if length > max_chars {
            return Err(InvalidRequestNumber::TooLong {
                length,
                max: max_chars,
            });
        }
        if let Some(found) = display
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '/' | '.' | '_')))
        {
            return Err(InvalidRequestNumber::Character { found });
        }
        let normalized = display
            .chars()
            .filter(|c| *c != ' ')
            .map(|c| c.to_ascii_uppercase())
            .collect();
        Ok(Self {
            display: display.to_owned(),
            normalized,
        })
    }

    /// Rebuilds a number read back from storage.
    #[must_use]
    pub fn from_parts(display: String, normalized: String) -> Self {
        Self {
            display,
            normalized,
        }
    }

    /// Replaces the matching form, e.g. with a container number's ISO 6346 normal form.
    #[must_use]
    pub fn with_normalized(mut self, normalized: String) -> Self {
        self.normalized = normalized;
        self
    }

    /// The number as the client wrote it, trimmed.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.display
    }

    /// The form duplicates are matched on.
    #[must_use]
    pub fn normalized(&self) -> &str {
        &self.normalized
    }
}

impl fmt::Display for RequestNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn numbers_are_trimmed_and_normalized_for_matching() {
        let number = RequestNumber::parse("  medu 1234567 ", 64).expect("valid");
        assert_eq!(number.as_str(), "medu 1234567");
        assert_eq!(number.normalized(), "MEDU1234567");
    }

    #[test]
    fn blank_long_and_strange_numbers_are_rejected() {
        assert_eq!(
            RequestNumber::parse(" \t", 64),
            Err(InvalidRequestNumber::Blank)
        );
        assert_eq!(
            RequestNumber::parse(&"A".repeat(65), 64),
            Err(InvalidRequestNumber::TooLong {
                length: 65,
                max: 64
            })
        );
        assert_eq!(
            RequestNumber::parse("MAEU\u{0}1", 64),
            Err(InvalidRequestNumber::Character { found: '\u{0}' })
        );
        assert_eq!(
            RequestNumber::parse("MAEU😀", 64),
            Err(InvalidRequestNumber::Character { found: '😀' })
        );
    }

    #[test]
    fn the_length_limit_applies_to_the_number_as_sent() {
        assert_eq!(
            RequestNumber::parse(&format!(" {}", "A".repeat(64)), 64),
            Err(InvalidRequestNumber::TooLong {
                length: 65,
                max: 64
            })
        );
        assert_eq!(
            RequestNumber::parse("\tMAEU1 \r\n", 64).map(|n| n.as_str().to_owned()),
            Ok("MAEU1".to_owned())
        );
    }

    #[test]
    fn request_types_parse_their_wire_names_only() {
        for kind in RequestType::ALL {
            assert_eq!(RequestType::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(RequestType::parse("booking"), None);
        assert_eq!(RequestType::parse("Container"), None);
    }

    proptest! {
        #[test]
        fn parsing_never_panics_and_respects_the_limit(text in any::<String>(), max in 1usize..80) {
            if let Ok(number) = RequestNumber::parse(&text, max) {
                prop_assert!(number.as_str().chars().count() <= max);
                prop_assert!(!number.normalized().contains(' '));
            }
        }
    }
}
