//! Who may push to Tidemark: a line or a terminal presenting the token configured for it
//! (`[arrival_notices.callbacks.SCAC]`, `[terminals.callbacks.CODE]`) speaks for what is
//! tracked from it; the simulator presenting the sandbox's key for what the sandbox
//! tracks. Tokens are compared in constant time and never shown.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use crate::Secret;
use crate::registry::{RegistryError, Sandbox, Source};

/// Shortest callback token accepted.
pub const MIN_TOKEN: usize = 16;

/// `[….callbacks.KEY]`: how a party's pushes prove they are its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallbackConfig {
    /// The token the party sends as `Authorization: Bearer {token}`; at least
    /// [`MIN_TOKEN`] characters.
    pub token: Secret,
}

/// The parties that may push, by key, with their tokens, and the sandbox's key.
#[derive(Debug)]
pub struct Callers<K> {
    tokens: HashMap<K, Secret>,
    sandbox: Option<Secret>,
}

impl<K> Default for Callers<K> {
    fn default() -> Self {
        Self {
            tokens: HashMap::new(),
            sandbox: None,
        }
    }
}

impl<K: Eq + Hash> Callers<K> {
    /// The callers of section `section` (`arrival_notices.callbacks`), keys read by `key`.
    ///
    /// # Errors
    /// The first entry with a bad key or a short token.
    pub fn build(
        section: &str,
        config: &BTreeMap<String, CallbackConfig>,
        key: impl Fn(&str) -> Option<K>,
        sandbox: Option<&Sandbox>,
    ) -> Result<Self, RegistryError> {
        let mut tokens = HashMap::new();
        for (name, callback) in config {
            let error = |problem: &str| RegistryError {
                entry: format!("{section}.{name}"),
                problem: problem.to_owned(),
            };
            let parsed = key(name).ok_or_else(|| error("not a valid code"))?;
            if callback.token.expose().chars().count() < MIN_TOKEN {
                return Err(error("token must have at least 16 characters"));
            }
            tokens.insert(parsed, callback.token.clone());
        }
        Ok(Self {
            tokens,
            sandbox: sandbox.map(|sandbox| sandbox.api_key.clone()),
        })
    }

    /// The token `key` is given to push with: its own, or the sandbox's key for `Sandbox`.
    #[must_use]
    pub fn token(&self, key: &K, source: Source) -> Option<&Secret> {
        match source {
            Source::Carrier => self.tokens.get(key),
            Source::Sandbox => self.sandbox.as_ref(),
        }
    }

    /// Whose pushes a caller presenting `token` for `key` makes: the party's own, for what
    /// is tracked from it, or the simulator's, for the sandbox's; `None` for anyone else.
    #[must_use]
    pub fn authorize(&self, key: &K, token: &str) -> Option<Source> {
        let matches =
            |secret: &Secret| bool::from(secret.expose().as_bytes().ct_eq(token.as_bytes()));
        if self.tokens.get(key).is_some_and(matches) {
            return Some(Source::Carrier);
        }
        self.sandbox
            .as_ref()
            .filter(|key| matches(key))
            .map(|_| Source::Sandbox)
    }
}
