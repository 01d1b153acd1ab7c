//! A client's customers: the reference API's `party` (compat-api.md §3.9), a company name
//! that a tracking request names as its `customer`, so that its shipment and containers can
//! be found by customer.

use std::fmt;

use crate::validation::check_text;
use crate::{AccountId, Field, FieldError, PartyId, Timestamp, ValidationCode};

/// A party's `company_name`: trimmed, not blank, at most [`CompanyName::MAX_CHARS`]
/// characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CompanyName(String);

impl CompanyName {
    /// The longest name, in characters.
    pub const MAX_CHARS: usize = 200;

    /// Parses a name a client sent, trimmed.
    ///
    /// # Errors
    /// `blank` when empty once trimmed; `too_long` or `invalid` (a control character).
    pub fn parse(text: &str) -> Result<Self, FieldError> {
        let name = text.trim();
        let field = Field::Other("company_name");
        if name.is_empty() {
            return Err(FieldError::new(
                field,
                ValidationCode::Blank,
                "must not be blank",
            ));
        }
        let mut errors = Vec::new();
        check_text(field, name, Self::MAX_CHARS, &mut errors);
        match errors.pop() {
            Some(error) => Err(error),
            None => Ok(Self(name.to_owned())),
        }
    }

    /// A name read back from storage, which was parsed when written.
    #[must_use]
    pub fn from_stored(text: String) -> Self {
        Self(text)
    }

    /// The name.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CompanyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One customer of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Party {
    /// Its id.
    pub id: PartyId,
    /// The owning account.
    pub account_id: AccountId,
    /// Its name.
    pub company_name: CompanyName,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

impl Party {
    /// A new party of `account_id`.
    #[must_use]
    pub fn new(account_id: AccountId, company_name: CompanyName, now: Timestamp) -> Self {
        Self {
            id: PartyId::new(),
            account_id,
            company_name,
            created_at: now,
            updated_at: now,
        }
    }

    /// The party renamed at `now`.
    #[must_use]
    pub fn renamed(self, company_name: CompanyName, now: Timestamp) -> Self {
        Self {
            company_name,
            updated_at: now,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_company_name_is_trimmed_and_checked() {
        assert_eq!(
            CompanyName::parse("  Acme Imports ").map(|n| n.to_string()),
            Ok("Acme Imports".to_owned())
        );
        let code = |text: &str| CompanyName::parse(text).map_err(|e| e.code);
        assert_eq!(code("   "), Err(ValidationCode::Blank));
        assert_eq!(code("Acme\u{0}"), Err(ValidationCode::Invalid));
        let longest = "x".repeat(CompanyName::MAX_CHARS);
        assert!(code(&longest).is_ok());
        assert_eq!(code(&format!("{longest}x")), Err(ValidationCode::TooLong));
    }
}
