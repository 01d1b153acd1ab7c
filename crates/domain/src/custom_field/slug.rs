//! A definition's `api_slug`: how clients name a field in values and paths.

use std::fmt;

/// The longest slug.
pub const MAX_SLUG_CHARS: usize = 64;

/// A lowercase ASCII letter, then lowercase letters, digits and underscores, at most
/// [`MAX_SLUG_CHARS`] in all (`purchase_order_number`): safe in a URL path as it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ApiSlug(String);

impl ApiSlug {
    /// Parses `text`.
    ///
    /// # Errors
    /// What is wrong with it, for a client to read.
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.is_empty() {
            return Err("api_slug must not be blank".to_owned());
        }
        if text.chars().count() > MAX_SLUG_CHARS {
            return Err(format!("api_slug is at most {MAX_SLUG_CHARS} characters"));
        }
        let mut chars = text.chars();
        let first_is_letter = chars.next().is_some_and(|c| c.is_ascii_lowercase());
        let rest_fits = chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if first_is_letter && rest_fits {
            Ok(Self(text.to_owned()))
        } else {
            Err(
                "api_slug is a lowercase letter, then lowercase letters, digits and underscores \
                 (e.g. purchase_order_number)"
                    .to_owned(),
            )
        }
    }

    /// The slug.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ApiSlug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_lowercase_words_joined_by_underscores() {
        for good in ["po", "purchase_order_number", "x1", "a_b_c_2"] {
            assert_eq!(
                ApiSlug::parse(good).map(|s| s.to_string()),
                Ok(good.to_owned())
            );
        }
        for bad in ["", "PO", "1st", "_x", "po-number", "po number", "pó"] {
            assert!(ApiSlug::parse(bad).is_err(), "{bad}");
        }
        assert!(ApiSlug::parse(&"a".repeat(MAX_SLUG_CHARS)).is_ok());
        assert!(ApiSlug::parse(&"a".repeat(MAX_SLUG_CHARS + 1)).is_err());
    }
}
