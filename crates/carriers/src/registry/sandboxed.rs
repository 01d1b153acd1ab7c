//! Connectors to the sandbox (the carrier simulator), built on first use and kept: one per
//! SCAC or terminal code, however many lookups ask for it.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use super::Sandbox;
use crate::auth::Auth;

impl Sandbox {
    /// The credentials every route of the simulator takes.
    pub(crate) fn auth(&self) -> Auth {
        Auth::Header {
            name: "API-Key".to_owned(),
            value: self.api_key.clone(),
        }
    }

    /// The simulator's URL of `path` (`TEST`, `terminals/USORFVIG`).
    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.base_url.trim_end_matches('/'))
    }
}

/// The sandbox's connectors built so far, by key.
#[derive(Debug)]
pub(crate) struct Sandboxed<K, C>(Mutex<HashMap<K, Arc<C>>>);

impl<K, C> Default for Sandboxed<K, C> {
    fn default() -> Self {
        Self(Mutex::new(HashMap::new()))
    }
}

impl<K: Eq + Hash + Clone, C> Sandboxed<K, C> {
    /// The connector of `key`, built by `build` the first time; `None` when it cannot be.
    pub(crate) fn get_or_build(
        &self,
        key: &K,
        build: impl FnOnce() -> Option<Arc<C>>,
    ) -> Option<Arc<C>> {
        let mut built = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(connector) = built.get(key) {
            return Some(Arc::clone(connector));
        }
        let connector = build()?;
        built.insert(key.clone(), Arc::clone(&connector));
        Some(connector)
    }
}
