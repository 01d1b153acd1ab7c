//! Standard Carrier Alpha Codes: the four-character code of a shipping line.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A syntactically valid SCAC: four ASCII letters or digits, stored upper case.
///
/// Whether a carrier uses it is a question for the [`crate::CarrierMatrix`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Scac([u8; 4]);

/// Why a string is not a SCAC.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a SCAC is four letters or digits")]
pub struct InvalidScac;

impl Scac {
    /// The sandbox line (api.md §6), always available.
    pub const SANDBOX: Self = Self(*b"TEST");

    /// The line to track `number` with when it is one of the sandbox's (`TEST-…`, the
    /// simulator's scripted numbers): [`Scac::SANDBOX`]; `None` for any other number.
    #[must_use]
    pub fn of_sandbox_number(number: &str) -> Option<Self> {
        let number = number.trim();
        let prefix = number.get(..5)?;
        prefix
            .eq_ignore_ascii_case("TEST-")
            .then_some(Self::SANDBOX)
    }

    /// Parses a SCAC, in any case. Surrounding spaces are not accepted: a SCAC is exactly
    /// four characters, as the API documents it.
    ///
    /// # Errors
    /// When `text` is not four ASCII letters or digits.
    pub fn parse(text: &str) -> Result<Self, InvalidScac> {
        let bytes = text.as_bytes();
        let code: [u8; 4] = bytes.try_into().map_err(|_| InvalidScac)?;
        if !code.iter().all(u8::is_ascii_alphanumeric) {
            return Err(InvalidScac);
        }
        Ok(Self(code.map(|b| b.to_ascii_uppercase())))
    }

    /// The code as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Only ASCII alphanumerics are ever stored.
        std::str::from_utf8(&self.0).unwrap_or("????")
    }
}

impl fmt::Display for Scac {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scac {
    type Err = InvalidScac;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl TryFrom<String> for Scac {
    type Error = InvalidScac;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(&value)
    }
}

impl From<Scac> for String {
    fn from(value: Scac) -> Self {
        value.as_str().to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn scacs_are_case_insensitive_and_exactly_four_characters() {
        assert_eq!(
            Scac::parse("maeu").map(|s| s.to_string()),
            Ok("MAEU".into())
        );
        assert_eq!(Scac::parse(" MAEU"), Err(InvalidScac));
        assert_eq!(
            Scac::parse("11DX").map(|s| s.to_string()),
            Ok("11DX".into())
        );
    }

    #[test]
    fn a_sandbox_number_is_tracked_with_the_sandbox_line() {
        assert_eq!(
            Scac::of_sandbox_number(" test-TR-JOURNEY"),
            Some(Scac::SANDBOX)
        );
        assert_eq!(Scac::of_sandbox_number("TESTU1234567"), None);
        assert_eq!(Scac::of_sandbox_number("MSKU1234565"), None);
        assert_eq!(Scac::of_sandbox_number("TEST"), None);
        assert_eq!(Scac::of_sandbox_number("ÜÜÜ"), None);
    }

    #[test]
    fn wrong_length_or_characters_are_rejected() {
        for bad in ["", "MAE", "MAEUX", "MA-U", "MAÉU", "MA U"] {
            assert_eq!(Scac::parse(bad), Err(InvalidScac), "{bad:?}");
        }
    }

    proptest! {
        #[test]
        fn any_parsed_scac_round_trips(text in "[A-Za-z0-9]{4}") {
            let scac = Scac::parse(&text).expect("four alphanumerics");
            prop_assert_eq!(Scac::parse(scac.as_str()), Ok(scac));
            prop_assert_eq!(scac.as_str(), text.to_ascii_uppercase());
        }

        #[test]
        fn parsing_never_panics(text in any::<String>()) {
            let _ = Scac::parse(&text);
        }
    }
}
