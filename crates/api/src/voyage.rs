//! A shipment's voyage as both maps draw it (the API's `map_geojson`, the console's
//! shipment page): its ports, the vessel it is on where a feed last heard it, the path
//! that vessel sailed since the port of loading, and the legs ahead over the sea routes
//! (from the vessel to its next port, then between the ports after; from the last port
//! reached when no feed heard the vessel).

use seaways::{Network, Route};
use tidemark_domain::vessel::forecast::{RECENT, point};
use tidemark_domain::vessel::voyage::{Voyage, current_vessel};
use tidemark_domain::vessel::{HeardVessel, Position};
use tidemark_domain::{Shipment, TransportEvent, VesselRef};
use tidemark_store::{Store, StoreError};

/// Track points drawn at most.
const PATH_MAX: u32 = 5_000;

/// One leg ahead: from which stop (none: from the vessel) to which, and its route.
#[derive(Debug, Clone)]
pub(crate) struct Leg {
    pub from: Option<usize>,
    pub to: usize,
    pub route: Route,
}

/// What the maps draw of a shipment's voyage.
#[derive(Debug, Clone, Default)]
pub(crate) struct VoyageView {
    pub voyage: Voyage,
    pub vessel: Option<VesselRef>,
    pub heard: Option<HeardVessel>,
    pub path: Vec<Position>,
    pub ahead: Vec<Leg>,
}

impl VoyageView {
    /// The voyage of `shipment`, from its containers' `events` and what the feeds heard.
    pub(crate) async fn read(
        store: &dyn Store,
        shipment: &Shipment,
        events: &[TransportEvent],
    ) -> Result<Self, StoreError> {
        let voyage = Voyage::of(shipment, events);
        let vessel = current_vessel(shipment, events);
        let heard = match &vessel {
            Some(vessel) => store.heard_vessel(&vessel.imo).await?,
            None => None,
        };
        let latest = heard.as_ref().and_then(|heard| heard.position);
        let path = match (&heard, latest) {
            (Some(heard), Some(latest)) => {
                let since = shipment.route.pol_atd_at.unwrap_or(latest.at - RECENT);
                store
                    .track(heard.mmsi, (since, latest.at), PATH_MAX)
                    .await?
            }
            _ => Vec::new(),
        };
        let ahead = legs_ahead(&voyage, latest.as_ref().map(point));
        Ok(Self {
            voyage,
            vessel,
            heard,
            path,
            ahead,
        })
    }

    /// The vessel's latest position, when a feed heard it.
    pub(crate) fn latest(&self) -> Option<Position> {
        self.heard.as_ref().and_then(|heard| heard.position)
    }
}

fn legs_ahead(voyage: &Voyage, vessel_at: Option<seaways::Point>) -> Vec<Leg> {
    let network = Network::bundled();
    let Some(next) = voyage.next() else {
        return Vec::new();
    };
    let stops = &voyage.stops;
    let mut legs = Vec::new();
    let first_full = match vessel_at {
        Some(at) => {
            if let Some(route) = network.route(at, stops[next].point) {
                legs.push(Leg {
                    from: None,
                    to: next,
                    route,
                });
            }
            next
        }
        None => next.saturating_sub(1),
    };
    for from in first_full..stops.len().saturating_sub(1) {
        if let Some(route) = network.route(stops[from].point, stops[from + 1].point) {
            legs.push(Leg {
                from: Some(from),
                to: from + 1,
                route,
            });
        }
    }
    legs
}
