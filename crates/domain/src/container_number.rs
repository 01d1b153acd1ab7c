//! ISO 6346 container numbers: owner code, category, serial and check digit.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A container number whose layout and check digit are valid, in normal form (`MSKU1234565`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ContainerNumber(String);

/// Why a string is not a valid ISO 6346 container number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidContainerNumber {
    /// Not three letters, a category letter (U, J or Z), six digits and a check digit.
    #[error("is not an ISO 6346 container number (3 letters, U/J/Z, 6 digits and a check digit)")]
    Layout,
    /// The layout is right but the check digit is not the one the first ten characters give.
    #[error("fails the ISO 6346 check digit: the last digit is {found}, expected {expected}")]
    CheckDigit {
        /// The digit the number carries.
        found: u8,
        /// The digit ISO 6346 computes for the first ten characters.
        expected: u8,
        /// The number in normal form.
        normalized: String,
    },
}

impl ContainerNumber {
    /// Characters in a container number: owner code, category, six serial digits and the
    /// check digit.
    pub const LEN: usize = 11;

    /// Parses a container number, accepting lower case, spaces, hyphens and a slash
    /// before the check digit (`msku 123456-5`, `MSKU123456/5`).
    ///
    /// # Errors
    /// When the layout or the check digit is wrong.
    pub fn parse(text: &str) -> Result<Self, InvalidContainerNumber> {
        let normalized = normalize(text);
        let bytes = normalized.as_bytes();
        if !has_layout(bytes) {
            return Err(InvalidContainerNumber::Layout);
        }
        let expected = check_digit(bytes);
        let found = bytes[10] - b'0';
        if expected != found {
            return Err(InvalidContainerNumber::CheckDigit {
                found,
                expected,
                normalized,
            });
        }
        Ok(Self(normalized))
    }

    /// The four-letter prefix (owner code and category), e.g. `MSKU`.
    #[must_use]
    pub fn prefix(&self) -> &str {
        &self.0[..4]
    }

    /// The number in normal form.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Upper case (`a` to `z` only: other letters are not ISO 6346's), without spaces, hyphens
/// or slashes: the form ISO 6346 numbers are compared in.
#[must_use]
pub fn normalize(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '/') && !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// The ISO 6346 normal form of `text` when it is laid out as a container number (check
/// digit not checked): how a container number written in any spelling is matched.
#[must_use]
pub fn layout_form(text: &str) -> Option<String> {
    let normalized = normalize(text);
    has_layout(normalized.as_bytes()).then_some(normalized)
}

fn has_layout(bytes: &[u8]) -> bool {
    bytes.len() == ContainerNumber::LEN
        && bytes[..3].iter().all(u8::is_ascii_uppercase)
        && matches!(bytes[3], b'U' | b'J' | b'Z')
        && bytes[4..].iter().all(u8::is_ascii_digit)
}

/// Letters ISO 6346 cannot tell apart: their values are equal modulo 11, so swapping one for
/// another in the same position leaves the check digit unchanged.
pub const INDISTINGUISHABLE_LETTERS: [&str; 10] = [
    "AKU", "BLV", "CMW", "DNX", "EOY", "FPZ", "GQ", "HR", "IS", "JT",
];

/// ISO 6346 values of the letters A to Z: counting up from A = 10, skipping 11, 22 and 33.
const LETTER_VALUES: [u32; 26] = [
    10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 34, 35, 36,
    37, 38,
];

/// The ISO 6346 value of an upper-case letter or digit (the layout check comes first).
fn char_value(byte: u8) -> u32 {
    if byte.is_ascii_digit() {
        u32::from(byte - b'0')
    } else {
        LETTER_VALUES[usize::from(byte.saturating_sub(b'A')).min(25)]
    }
}

/// The check digit of the first ten characters (ISO 6346 Annex A).
fn check_digit(bytes: &[u8]) -> u8 {
    let sum: u32 = bytes[..10]
        .iter()
        .enumerate()
        .map(|(position, &byte)| char_value(byte) << position)
        .sum();
    // (sum mod 11) mod 10 is always a single digit.
    u8::try_from(sum % 11 % 10).unwrap_or(0)
}

impl fmt::Display for ContainerNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for ContainerNumber {
    type Error = InvalidContainerNumber;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(&value)
    }
}

impl From<ContainerNumber> for String {
    fn from(value: ContainerNumber) -> Self {
        value.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn letter_values_skip_multiples_of_eleven() {
        let values: Vec<u32> = (b'A'..=b'Z').map(char_value).collect();
        assert!(values.iter().all(|v| v % 11 != 0), "{values:?}");
        assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");
        assert_eq!((values[0], values[25]), (10, 38));
    }

    #[test]
    fn the_indistinguishable_letters_are_exactly_those_equal_modulo_eleven() {
        let mut classes: Vec<String> = Vec::new();
        for residue in 0..11 {
            let class: String = (b'A'..=b'Z')
                .filter(|&b| char_value(b) % 11 == residue)
                .map(char::from)
                .collect();
            if class.len() > 1 {
                classes.push(class);
            }
        }
        classes.sort();
        let mut documented: Vec<String> = INDISTINGUISHABLE_LETTERS
            .iter()
            .map(|c| (*c).to_owned())
            .collect();
        documented.sort();
        assert_eq!(classes, documented);
    }

    #[test]
    fn the_worked_example_of_the_standard_passes() {
        let number = ContainerNumber::parse("CSQU 305438 3").expect("valid");
        assert_eq!(number.as_str(), "CSQU3054383");
        assert_eq!(number.prefix(), "CSQU");
    }

    #[test]
    fn lower_case_hyphens_and_slashes_are_normalized() {
        assert_eq!(
            ContainerNumber::parse("csqu-305438/3").map(|n| n.to_string()),
            Ok("CSQU3054383".to_owned())
        );
    }

    #[test]
    fn a_wrong_check_digit_reports_the_expected_one() {
        assert_eq!(
            ContainerNumber::parse("CSQU3054384"),
            Err(InvalidContainerNumber::CheckDigit {
                found: 4,
                expected: 3,
                normalized: "CSQU3054384".to_owned(),
            })
        );
    }

    #[test]
    fn wrong_layouts_are_rejected() {
        for bad in [
            "",
            "CSQU305438",
            "CSQX3054383",
            "C5QU3054383",
            "CSQU30543833",
            "ÇSQU3054383",
        ] {
            assert_eq!(
                ContainerNumber::parse(bad),
                Err(InvalidContainerNumber::Layout),
                "{bad:?}"
            );
        }
    }

    fn with_check_digit(body: &str) -> String {
        format!("{body}{}", check_digit(body.as_bytes()))
    }

    proptest! {
        #[test]
        fn every_valid_number_round_trips(body in "[A-Z]{3}[UJZ][0-9]{6}") {
            let text = with_check_digit(&body);
            let number = ContainerNumber::parse(&text).expect("valid by construction");
            prop_assert_eq!(ContainerNumber::parse(&number.to_string()), Ok(number.clone()));
            prop_assert_eq!(number.as_str(), text.as_str());
        }

        #[test]
        fn every_wrong_check_digit_is_caught(body in "[A-Z]{3}[UJZ][0-9]{6}", offset in 1u8..10) {
            let right = check_digit(body.as_bytes());
            let wrong = (right + offset) % 10;
            let result = ContainerNumber::parse(&format!("{body}{wrong}"));
            let is_check_digit_error = matches!(result, Err(InvalidContainerNumber::CheckDigit { .. }));
            prop_assert!(is_check_digit_error);
        }

        /// A single changed character is caught, except a letter swapped for one ISO 6346
        /// cannot tell from it, or when the first ten characters give remainder 10 before or
        /// after (the standard writes remainder 10 as check digit 0, like remainder 0).
        #[test]
        fn a_single_changed_character_is_caught_with_the_known_exceptions(
            body in "[A-Z]{3}[UJZ][0-9]{6}",
            position in 0usize..11,
            replacement in "[A-Z0-9]",
        ) {
            let number = with_check_digit(&body);
            let mut changed = number.clone().into_bytes();
            let new = replacement.as_bytes()[0];
            prop_assume!(changed[position] != new);
            let old = changed[position];
            changed[position] = new;
            let changed = String::from_utf8(changed).expect("ASCII");
            let accepted = ContainerNumber::parse(&changed).is_ok();
            let same_class = INDISTINGUISHABLE_LETTERS
                .iter()
                .any(|class| class.contains(char::from(old)) && class.contains(char::from(new)));
            let remainder = |text: &str| {
                text.bytes().take(10).enumerate().map(|(i, b)| char_value(b) << i).sum::<u32>() % 11
            };
            let remainder_ten = [0, 10].contains(&remainder(&number)) && [0, 10].contains(&remainder(&changed));
            if position < 10 && (same_class || remainder_ten) {
                // Indistinguishable: accepted whenever the layout still holds.
                prop_assert_eq!(accepted, has_layout(changed.as_bytes()), "{} vs {}", changed, number);
            } else {
                prop_assert!(!accepted, "{} accepted after changing {}", changed, number);
            }
        }

        #[test]
        fn parsing_never_panics(text in any::<String>()) {
            let _ = ContainerNumber::parse(&text);
        }
    }
}

#[cfg(test)]
mod real_numbers {
    use super::*;

    /// Real container numbers from `data/eval/labelled-numbers.csv` (public sources).
    #[test]
    fn every_published_container_number_is_judged_as_its_label_says() {
        let data = include_str!("../../../data/eval/labelled-numbers.csv");
        let mut checked = 0;
        for line in data.lines().skip(1) {
            let mut fields = line.split(',');
            let (Some(number), Some(kind)) = (fields.next(), fields.next()) else {
                continue;
            };
            match kind {
                "container" => assert!(
                    ContainerNumber::parse(number).is_ok(),
                    "{number} should be valid"
                ),
                "invalid_check_digit" => assert!(
                    matches!(
                        ContainerNumber::parse(number),
                        Err(InvalidContainerNumber::CheckDigit { .. })
                    ),
                    "{number} should fail its check digit"
                ),
                _ => continue,
            }
            checked += 1;
        }
        assert!(checked >= 25, "only {checked} container rows");
    }
}
