//! The number a client asks Tidemark to track, and what kind of number it is.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::container_number;

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
        Ok(Self {
            display: display.to_owned(),
            normalized: general_form(display),
        })
    }

    /// Parses a request number of `kind`: a container number's matching form is its ISO 6346
    /// normal form (`CSQU-305438-3` and `CSQU3054383` are one container), every other
    /// number's is [`general_form`]. The container's own rules (layout, check digit) are
    /// checked by [`crate::ContainerNumber::parse`]; here a number without the layout keeps the
    /// general form.
    ///
    /// # Errors
    /// As [`RequestNumber::parse`].
    pub fn parse_as(
        text: &str,
        kind: RequestType,
        max_chars: usize,
    ) -> Result<Self, InvalidRequestNumber> {
        let mut number = Self::parse(text, max_chars)?;
        if kind == RequestType::Container
            && let Some(form) = container_number::layout_form(&number.display)
        {
            number.normalized = form;
        }
        Ok(number)
    }

    /// Rebuilds a number read back from storage.
    #[must_use]
    pub fn from_parts(display: String, normalized: String) -> Self {
        Self {
            display,
            normalized,
        }
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

/// The matching form of a bill of lading or booking number: upper case, spaces removed.
/// Hyphens and slashes stay: carriers' references may carry them (`TEST-TR-JOURNEY`).
#[must_use]
pub fn general_form(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Every matching form a number written by a client may have, for filters and searches
/// that do not know its type: the [`general_form`], and the ISO 6346 normal form when it is
/// laid out as a container number. The one rule behind the duplicate index, the lookups and
/// every filter (api.md §2): a number matches a stored one when any form is equal.
#[must_use]
pub fn matching_forms(text: &str) -> Vec<String> {
    let mut forms = Vec::with_capacity(2);
    let general = general_form(text);
    if general.is_empty() {
        return forms;
    }
    let container = container_number::layout_form(text);
    forms.push(general);
    if let Some(form) = container
        && !forms.contains(&form)
    {
        forms.push(form);
    }
    forms
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
    fn a_container_written_with_hyphens_matches_its_normal_form() {
        let hyphens =
            RequestNumber::parse_as("csqu-305438-3", RequestType::Container, 64).expect("valid");
        let plain =
            RequestNumber::parse_as("CSQU3054383", RequestType::Container, 64).expect("valid");
        assert_eq!(hyphens.normalized(), plain.normalized());
        assert_eq!(hyphens.as_str(), "csqu-305438-3");
        assert!(matching_forms("CSQU-305438-3").contains(&plain.normalized().to_owned()));
        assert!(matching_forms("csqu 305438 3").contains(&plain.normalized().to_owned()));
    }

    #[test]
    fn bills_keep_their_hyphens_and_match_in_any_case() {
        let bill = RequestNumber::parse_as("test-tr-journey", RequestType::BillOfLading, 64)
            .expect("valid");
        assert_eq!(bill.normalized(), "TEST-TR-JOURNEY");
        assert_eq!(matching_forms(" test-TR-journey "), vec!["TEST-TR-JOURNEY"]);
        assert!(matching_forms("  ").is_empty());
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
                prop_assert!(matching_forms(&text).contains(&number.normalized().to_owned()));
            }
        }
    }
}
