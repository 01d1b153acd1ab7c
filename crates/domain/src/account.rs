//! Accounts and their API keys.
//!
//! A key is `tdm_` followed by 40 random base-62 characters. Tidemark stores only its
//! first 12 characters (the visible prefix, used to find the key) and its SHA-256 hash,
//! compared in constant time. Keys carry 238 bits of entropy, so a fast hash is
//! enough: there is nothing to brute-force.

use std::fmt;

use rand::Rng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::{AccountId, ApiKeyId, Timestamp};

const KEY_SCHEME: &str = "tdm_";
const KEY_RANDOM_CHARS: usize = 40;
const PREFIX_CHARS: usize = KEY_SCHEME.len() + 8;
const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// An account's name: 1 to 64 characters, no control characters, unique.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AccountName(String);

/// Why a string is not an account name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an account name is 1 to 64 characters without control characters, and not a UUID")]
pub struct InvalidAccountName;

impl AccountName {
    /// Parses a name, trimmed.
    ///
    /// # Errors
    /// When blank, longer than 64 characters, holding control characters, or shaped like
    /// a UUID (which would be ambiguous with account ids on the command line).
    pub fn parse(text: &str) -> Result<Self, InvalidAccountName> {
        let name = text.trim();
        let valid = !name.is_empty()
            && name.chars().count() <= 64
            && !name.chars().any(char::is_control)
            && AccountId::parse(name).is_none();
        if valid {
            Ok(Self(name.to_owned()))
        } else {
            Err(InvalidAccountName)
        }
    }

    /// The name.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AccountName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: AccountId,
    /// Its unique name.
    pub name: AccountName,
    /// When it was created.
    pub created_at: Timestamp,
}

/// A full API key. Its `Debug` shows only the prefix, so it never reaches a log.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKeySecret(String);

impl ApiKeySecret {
    /// A new random key.
    #[must_use]
    pub fn generate() -> Self {
        let mut rng = rand::rng();
        let random: String = (0..KEY_RANDOM_CHARS)
            .map(|_| char::from(BASE62[rng.random_range(0..BASE62.len())]))
            .collect();
        Self(format!("{KEY_SCHEME}{random}"))
    }

    /// Accepts a presented key if it has the shape of one of ours.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        let random = text.strip_prefix(KEY_SCHEME)?;
        let shaped =
            random.len() == KEY_RANDOM_CHARS && random.bytes().all(|b| b.is_ascii_alphanumeric());
        shaped.then(|| Self(text.to_owned()))
    }

    /// The visible prefix that identifies the key (`tdm_` and 8 characters).
    #[must_use]
    pub fn prefix(&self) -> &str {
        &self.0[..PREFIX_CHARS]
    }

    /// The SHA-256 of the whole key, as stored.
    #[must_use]
    pub fn hash(&self) -> [u8; 32] {
        Sha256::digest(self.0.as_bytes()).into()
    }

    /// A token bound to this key for `purpose` (the console's CSRF token): the SHA-256 of
    /// the purpose and the key, in hex. Whoever holds only the token learns nothing of the
    /// key, and a page cannot compute it without the key.
    #[must_use]
    pub fn bound_token(&self, purpose: &str) -> String {
        let mut digest = Sha256::new();
        digest.update(purpose.as_bytes());
        digest.update([0]);
        digest.update(self.0.as_bytes());
        hex::encode(digest.finalize())
    }

    /// The key itself, for showing once to the person who created it.
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKeySecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKeySecret({}…)", self.prefix())
    }
}

/// A stored API key: its prefix and hash, never the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyRecord {
    /// Its id.
    pub id: ApiKeyId,
    /// The account it acts for.
    pub account_id: AccountId,
    /// The visible prefix.
    pub prefix: String,
    /// SHA-256 of the key.
    pub hash: [u8; 32],
    /// When it was created.
    pub created_at: Timestamp,
    /// When it was revoked; a revoked key authenticates nothing.
    pub revoked_at: Option<Timestamp>,
    /// What a person calls it, when named.
    pub name: Option<String>,
    /// When it was last used, to [`LAST_USE_GRAIN`]; none until it has been.
    pub last_used_at: Option<Timestamp>,
}

/// How finely a key's last use is kept: a use is written when the one kept is older.
pub const LAST_USE_GRAIN: time::Duration = time::Duration::hours(1);

/// The most characters of a key's name.
pub const KEY_NAME_MAX: usize = 100;

/// A key's name as a person gives it: trimmed, 1 to [`KEY_NAME_MAX`] characters, no
/// control characters.
///
/// # Errors
/// What is wrong with it, in words.
pub fn key_name(text: &str) -> Result<String, String> {
    let name = text.trim();
    if name.is_empty() {
        return Err("a key's name may not be blank".to_owned());
    }
    if name.chars().count() > KEY_NAME_MAX {
        return Err(format!(
            "a key's name has at most {KEY_NAME_MAX} characters"
        ));
    }
    if name.chars().any(char::is_control) {
        return Err("a key's name may not hold control characters".to_owned());
    }
    Ok(name.to_owned())
}

impl ApiKeyRecord {
    /// Whether a use at `now` should be written: none is kept, or the one kept is older
    /// than [`LAST_USE_GRAIN`].
    #[must_use]
    pub fn use_is_news(&self, now: Timestamp) -> bool {
        self.last_used_at
            .is_none_or(|last| now.as_datetime() - last.as_datetime() >= LAST_USE_GRAIN)
    }

    /// Whether `presented` is this key and still valid, comparing hashes in constant time.
    #[must_use]
    pub fn accepts(&self, presented: &ApiKeySecret) -> bool {
        let same: bool = self.hash.ct_eq(&presented.hash()).into();
        same && self.revoked_at.is_none()
    }
}

/// A newly created key: the record to store and the secret to show once.
#[derive(Debug)]
pub struct ApiKey {
    /// What is stored.
    pub record: ApiKeyRecord,
    /// What the client uses.
    pub secret: ApiKeySecret,
}

impl ApiKey {
    /// A new key for `account_id`.
    #[must_use]
    pub fn generate(account_id: AccountId, now: Timestamp) -> Self {
        let secret = ApiKeySecret::generate();
        let record = ApiKeyRecord {
            id: ApiKeyId::new(),
            account_id,
            prefix: secret.prefix().to_owned(),
            hash: secret.hash(),
            created_at: now,
            revoked_at: None,
            name: None,
            last_used_at: None,
        };
        Self { record, secret }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::OffsetDateTime;

    fn now() -> Timestamp {
        Timestamp::from_datetime(OffsetDateTime::UNIX_EPOCH)
    }

    #[test]
    fn a_generated_key_parses_and_is_accepted_by_its_record() {
        let key = ApiKey::generate(AccountId::new(), now());
        let presented = ApiKeySecret::parse(key.secret.expose()).expect("our shape");
        assert!(key.record.accepts(&presented));
        assert_eq!(key.record.prefix.len(), 12);
        assert!(key.secret.expose().starts_with(&key.record.prefix));
    }

    #[test]
    fn another_key_with_the_same_prefix_is_refused() {
        let key = ApiKey::generate(AccountId::new(), now());
        let mut forged = key.secret.expose().to_owned();
        let last = if forged.ends_with('a') { "b" } else { "a" };
        forged.replace_range(forged.len() - 1.., last);
        let forged = ApiKeySecret::parse(&forged).expect("same shape");
        assert_eq!(forged.prefix(), key.record.prefix);
        assert!(!key.record.accepts(&forged));
    }

    #[test]
    fn a_revoked_key_is_refused() {
        let mut key = ApiKey::generate(AccountId::new(), now());
        key.record.revoked_at = Some(now());
        assert!(!key.record.accepts(&key.secret));
    }

    #[test]
    fn malformed_keys_do_not_parse() {
        for bad in [
            "",
            "tdm_",
            "tdm_short",
            "xyz_0123456789012345678901234567890123456789",
            "tdm_012345678901234567890123456789012345678é",
        ] {
            assert!(ApiKeySecret::parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn debug_output_never_shows_the_key() {
        let key = ApiKey::generate(AccountId::new(), now());
        let shown = format!("{:?}", key.secret);
        assert!(!shown.contains(&key.secret.expose()[12..]), "{shown}");
    }

    #[test]
    fn account_names_are_checked() {
        assert!(AccountName::parse(" acme ").is_ok());
        assert!(AccountName::parse("").is_err());
        assert!(AccountName::parse(&"a".repeat(65)).is_err());
        assert!(AccountName::parse("a\nb").is_err());
        assert!(AccountName::parse(&AccountId::new().to_string()).is_err());
    }
}
