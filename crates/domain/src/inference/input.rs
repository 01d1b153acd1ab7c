//! What infer-number takes: a number that is not blank and not too long (api.md §3). The
//! endpoint, the console's carrier suggestion and the CLI hold it to the same rule.

use crate::ValidationCode;

/// The longest number accepted, in characters.
pub const NUMBER_CHARS: usize = 64;

/// Checks `text`: not blank (spaces, tabs and line breaks only), at most
/// [`NUMBER_CHARS`] characters.
///
/// # Errors
/// The validation code and a detail.
pub fn check_number(text: &str) -> Result<(), (ValidationCode, String)> {
    if text.trim_matches([' ', '\t', '\r', '\n']).is_empty() {
        return Err((ValidationCode::Blank, "number must not be blank".to_owned()));
    }
    if text.chars().count() > NUMBER_CHARS {
        return Err((
            ValidationCode::TooLong,
            format!("number is longer than {NUMBER_CHARS} characters"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_and_overlong_numbers_are_refused() {
        assert_eq!(
            check_number(" \t\n").map_err(|e| e.0),
            Err(ValidationCode::Blank)
        );
        assert!(check_number(&"A".repeat(NUMBER_CHARS)).is_ok());
        assert_eq!(
            check_number(&"A".repeat(NUMBER_CHARS + 1)).map_err(|e| e.0),
            Err(ValidationCode::TooLong)
        );
    }
}
