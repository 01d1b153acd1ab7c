//! The carriers that push their events to Tidemark (DCSA 2.2 event subscriptions): those
//! whose profile or entry says `push = "dcsa_2_2"`, once `[carriers] callback_base_url`
//! says where Tidemark receives (`{callback_base_url}/carrier-callbacks/{SCAC}`).

use std::collections::HashMap;
use std::sync::Arc;

use tidemark_domain::Scac;

use crate::dcsa::DcsaConnector;
use crate::dcsa::subscriptions::EventSubscriber;

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
}

impl Pushers {
    /// Pushers that give carriers callback URLs under `base`.
    pub(super) fn new(base: Option<&str>) -> Self {
        Self {
            by_scac: HashMap::new(),
            base: base.map(|b| b.trim_end_matches('/').to_owned()),
        }
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
