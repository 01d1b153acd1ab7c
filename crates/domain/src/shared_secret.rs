//! A secret shared with another party for HMAC-SHA256 signatures: as it is handed out
//! (`text`: a prefix, possibly empty, and the base64 of random bytes) and as it signs
//! (`key`: those bytes, decoded). Webhook secrets and carriers' push secrets are both one,
//! each with its own prefix, lengths and signature format.

use std::ops::RangeInclusive;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit};
use rand::RngCore;
use sha2::Sha256;

/// HMAC-SHA256.
pub(crate) type HmacSha256 = Hmac<Sha256>;

/// HMAC-SHA256 keyed with `key`.
pub(crate) fn hmac(key: &[u8]) -> HmacSha256 {
    // HMAC takes keys of any length, so this never fails.
    <HmacSha256 as KeyInit>::new_from_slice(key).unwrap_or_else(|_| unreachable!())
}

/// The secret. `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct SharedSecret {
    text: String,
    key: Vec<u8>,
}

impl SharedSecret {
    /// A new secret of `bytes` random bytes, handed out as `prefix` and their base64.
    pub(crate) fn generate(prefix: &str, bytes: usize) -> Self {
        let mut key = vec![0_u8; bytes];
        rand::rng().fill_bytes(&mut key);
        Self {
            text: format!("{prefix}{}", STANDARD.encode(&key)),
            key,
        }
    }

    /// A secret as stored or shown: `prefix` and the base64 of `bytes` bytes.
    pub(crate) fn parse(text: &str, prefix: &str, bytes: RangeInclusive<usize>) -> Option<Self> {
        let key = STANDARD.decode(text.strip_prefix(prefix)?).ok()?;
        bytes.contains(&key.len()).then(|| Self {
            text: text.to_owned(),
            key,
        })
    }

    /// A secret chosen by the other party, of any form: it signs with its UTF-8 bytes.
    pub(crate) fn opaque(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            key: text.as_bytes().to_vec(),
        }
    }

    /// The secret as handed out.
    pub(crate) fn expose(&self) -> &str {
        &self.text
    }

    /// HMAC-SHA256 keyed with the decoded bytes.
    pub(crate) fn mac(&self) -> HmacSha256 {
        hmac(&self.key)
    }
}

impl std::fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedSecret(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_its_prefix_and_base64_of_bytes_in_range() {
        let secret = SharedSecret::generate("p_", 32);
        assert!(secret.expose().starts_with("p_"));
        assert_eq!(
            SharedSecret::parse(secret.expose(), "p_", 32..=32),
            Some(secret.clone())
        );
        assert_ne!(SharedSecret::generate("p_", 32), secret);
        assert!(SharedSecret::parse(secret.expose(), "q_", 32..=32).is_none());
        assert!(SharedSecret::parse(secret.expose(), "p_", 33..=64).is_none());
        assert!(SharedSecret::parse("p_!!!", "p_", 0..=64).is_none());
        assert!(!format!("{secret:?}").contains(&secret.expose()[2..]));
    }
}
