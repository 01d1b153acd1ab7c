//! The carriers that push their events to Tidemark: by DCSA 2.2 event subscriptions, those
//! whose profile or entry says `push = "dcsa_2_2"`, once `[carriers] callback_base_url`
//! says where Tidemark receives (`{callback_base_url}/carrier-callbacks/{SCAC}`); by DCSA
//! 3.0's `POST /events`, those given a token (`[carriers.callbacks.SCAC] token`), read
//! with the carrier's quirks.

use std::collections::HashMap;
use std::sync::Arc;

use tidemark_domain::Scac;

use super::{RegistryError, Sandbox, Source};
use crate::callbacks::{CallbackConfig, Callers};
use crate::dcsa::subscriptions::EventSubscriber;
use crate::dcsa::v3::{Pushed, read_pushed};
use crate::dcsa::{DcsaConnector, Quirks};

/// A carrier's subscriptions, and where it is to push.
#[derive(Debug, Clone)]
pub struct Pusher {
    /// The carrier's subscriptions API.
    pub subscriber: Arc<dyn EventSubscriber>,
    /// The callback URL it is given.
    pub callback_url: String,
}

/// The carriers that push, by SCAC.
#[derive(Debug, Default)]
pub(super) struct Pushers {
    by_scac: HashMap<Scac, Arc<DcsaConnector>>,
    base: Option<String>,
    callers: Callers<Scac>,
    quirks: HashMap<Scac, Quirks>,
}

impl Pushers {
    /// Pushers that give carriers callback URLs under `base`, and take 3.0 pushes from
    /// the callers of `callbacks` (and the simulator, for the sandbox's lines).
    ///
    /// # Errors
    /// A `base` that is not an http(s) URL; a bad callback entry.
    pub(super) fn new(
        base: Option<&str>,
        callbacks: &std::collections::BTreeMap<String, CallbackConfig>,
        sandbox: Option<&Sandbox>,
    ) -> Result<Self, RegistryError> {
        if let Some(url) = base
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            return Err(RegistryError {
                entry: "carriers.callback_base_url".to_owned(),
                problem: format!("{url:?} is not an http(s) URL"),
            });
        }
        let scac = |key: &str| Scac::parse(key).ok();
        Ok(Self {
            by_scac: HashMap::new(),
            base: base.map(|b| b.trim_end_matches('/').to_owned()),
            callers: Callers::build("carriers.callbacks", callbacks, scac, sandbox)?,
            quirks: HashMap::new(),
        })
    }

    /// Reads `scac`'s pushes with `quirks`.
    pub(super) fn read_with(&mut self, scac: Scac, quirks: Quirks) {
        self.quirks.insert(scac, quirks);
    }

    /// Whose pushes a caller presenting `token` for `scac` makes.
    pub(super) fn authorize(&self, scac: Scac, token: &str) -> Option<Source> {
        self.callers.authorize(&scac, token)
    }

    /// A 3.0 push of `scac`, read with its quirks.
    pub(super) fn read_v3(&self, scac: Scac, body: &[u8]) -> Result<Pushed, String> {
        read_pushed(body, self.quirks.get(&scac).unwrap_or(&Quirks::default()))
    }

    /// Adds `scac`'s connector, when Tidemark has a callback URL to give.
    pub(super) fn add(&mut self, scac: Scac, connector: Arc<DcsaConnector>) {
        if self.base.is_some() {
            self.by_scac.insert(scac, connector);
        }
    }

    /// `scac`'s pusher.
    pub(super) fn get(&self, scac: Scac) -> Option<Pusher> {
        let connector = self.by_scac.get(&scac)?;
        let base = self.base.as_ref()?;
        Some(Pusher {
            subscriber: Arc::clone(connector) as Arc<dyn EventSubscriber>,
            callback_url: format!("{base}/carrier-callbacks/{scac}"),
        })
    }
}
