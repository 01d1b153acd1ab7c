//! What the tracker and the inbox work over, gathered once where the process is wired.

use std::sync::Arc;

use tidemark_app::Tracking;
use tidemark_carriers::registry::Registry;
use tidemark_domain::lifecycle::Policies;
use tidemark_domain::{CarrierMatrix, Clock};
use tidemark_store::Store;

/// The store, the carriers (their connectors and callback tokens), the carrier data whose
/// names the frozen records carry, and the clock.
#[derive(Debug, Clone)]
pub struct Deps {
    /// The database.
    pub store: Arc<dyn Store>,
    /// The configured carriers, terminals and Arrival Notice publishers.
    pub carriers: Arc<Registry>,
    /// The carrier data matrix.
    pub matrix: Arc<CarrierMatrix>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Where the links of notifications' records point (`[http] public_url`); paths
    /// when unset.
    pub public_url: Option<String>,
}

impl Deps {
    /// The use case that applies observations to tracking requests, deciding by `policies`.
    #[must_use]
    pub fn tracking(&self, policies: Policies) -> Tracking {
        Tracking::new(
            Arc::clone(&self.store),
            Arc::clone(&self.matrix),
            Arc::clone(&self.clock),
            policies,
        )
        .links_under(self.public_url.as_deref())
    }
}
