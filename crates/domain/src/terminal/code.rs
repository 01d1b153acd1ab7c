//! A terminal's code: SMDG, BIC facility or FIRMS, as carriers and terminals write it.

use std::fmt;

/// A terminal's code (`USORFVIG`, `ECTDE`, `Y258`): 2 to 12 letters and digits, kept in
/// capitals, so it names a configured terminal and a URL path segment safely.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TerminalCode(String);

impl TerminalCode {
    /// Reads a code, in any case.
    ///
    /// # Errors
    /// What is wrong with it.
    pub fn parse(text: &str) -> Result<Self, String> {
        let code = text.trim().to_ascii_uppercase();
        if !(2..=12).contains(&code.len()) {
            return Err("a terminal code has 2 to 12 characters".to_owned());
        }
        if !code.bytes().all(|byte| byte.is_ascii_alphanumeric()) {
            return Err("a terminal code has only letters and digits".to_owned());
        }
        Ok(Self(code))
    }

    /// The code.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TerminalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::TerminalCode;

    #[test]
    fn codes_are_read_in_capitals_and_checked() {
        for (text, read) in [
            ("ectde", Some("ECTDE")),
            (" USORFVIG ", Some("USORFVIG")),
            ("Y258", Some("Y258")),
            ("X", None),
            ("ABCDEFGHIJKLM", None),
            ("EC/TDE", None),
            ("", None),
        ] {
            let parsed = TerminalCode::parse(text).ok();
            assert_eq!(parsed.as_ref().map(TerminalCode::as_str), read, "{text:?}");
        }
    }
}
