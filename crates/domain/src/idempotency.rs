//! Idempotency keys (`Idempotency-Key` on a POST): what a key may be, how long its first
//! answer is kept, and the fingerprint that tells a retry of the same request from another
//! request reusing the key.

use sha2::{Digest, Sha256};

/// How long the first answer to a key is replayed.
pub const KEPT_FOR: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// The longest key.
pub const MAX_KEY_LENGTH: usize = 255;

/// The characters a key may hold (visible ASCII, as [`IdempotencyKey::parse`] checks), as a
/// regular expression for the OpenAPI document.
pub const KEY_PATTERN: &str = "^[!-~]+$";

/// A client's idempotency key: 1 to [`MAX_KEY_LENGTH`] visible ASCII characters (a UUID,
/// say).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// Parses a header's bytes.
    ///
    /// # Errors
    /// Empty, longer than [`MAX_KEY_LENGTH`], or with a character outside visible ASCII;
    /// the message says which.
    pub fn parse(raw: &[u8]) -> Result<Self, String> {
        if raw.is_empty() {
            return Err("the key is empty".to_owned());
        }
        if raw.len() > MAX_KEY_LENGTH {
            return Err(format!(
                "the key is longer than {MAX_KEY_LENGTH} characters"
            ));
        }
        if !raw.iter().all(u8::is_ascii_graphic) {
            return Err("the key may hold only visible ASCII characters, no spaces".to_owned());
        }
        Ok(Self(String::from_utf8_lossy(raw).into_owned()))
    }

    /// The key.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What makes two requests the same one: method, path with query, and body, hashed
/// (SHA-256, hex).
#[must_use]
pub fn fingerprint(method: &str, path_and_query: &str, body: &[u8]) -> String {
    let mut hash = Sha256::new();
    for part in [method.as_bytes(), path_and_query.as_bytes(), body] {
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part);
    }
    hex::encode(hash.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stated_pattern_is_the_characters_parse_accepts() {
        assert_eq!(KEY_PATTERN, "^[!-~]+$");
        for byte in 0..=u8::MAX {
            let in_range = (b'!'..=b'~').contains(&byte);
            assert_eq!(IdempotencyKey::parse(&[byte]).is_ok(), in_range, "{byte}");
        }
    }

    #[test]
    fn keys_are_visible_ascii_of_bounded_length() {
        assert!(IdempotencyKey::parse(b"0190c6e4-7f1a-7c3e-9d7e-3b0f6f1e9a21").is_ok());
        assert!(IdempotencyKey::parse(&[b'k'; MAX_KEY_LENGTH]).is_ok());
        for bad in [
            &b""[..],
            &[b'k'; MAX_KEY_LENGTH + 1],
            b"two words",
            "clé".as_bytes(),
        ] {
            assert!(IdempotencyKey::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_fingerprint_tells_each_part_apart() {
        let one = fingerprint("POST", "/v2/webhooks", b"{}");
        assert_eq!(one, fingerprint("POST", "/v2/webhooks", b"{}"));
        assert_ne!(one, fingerprint("POST", "/v2/webhooks", b"{ }"));
        assert_ne!(one, fingerprint("POST", "/v2/webhooks?x=1", b"{}"));
        // The parts' lengths are hashed too: moving a byte between them changes it.
        assert_ne!(
            fingerprint("POST", "/a", b"b"),
            fingerprint("POST", "/ab", b"")
        );
    }
}
