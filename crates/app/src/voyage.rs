//! A shipment's voyage as both maps draw it (the API's `map_geojson`, the console's
//! shipment page) and as Tidemark's own arrival estimate reads it: its ports, the vessel
//! it is on where a feed last heard it, the path that vessel sailed since the port of
//! loading, and the legs ahead over the sea routes (from the vessel to its next port,
//! then between the ports after; from the last port reached when no feed heard the
//! vessel).

use seaways::{Network, Route};
use tidemark_domain::tracking::Prediction;
use tidemark_domain::vessel::forecast::{
    self, PORT_STAY, RECENT, SERVICE_SPEED_KNOTS, point, recent_speed,
};
use tidemark_domain::vessel::voyage::{Voyage, current_vessel};
use tidemark_domain::vessel::{HeardVessel, Position};
use tidemark_domain::{Shipment, Timestamp, TransportEvent, VesselRef};
use tidemark_store::{Store, StoreError};

/// Track points drawn at most.
const PATH_MAX: u32 = 5_000;

/// One leg ahead: from which stop (none: from the vessel) to which, and its route.
#[derive(Debug, Clone)]
pub struct Leg {
    /// The stop it starts at; `None`: where the vessel is.
    pub from: Option<usize>,
    /// The stop it ends at.
    pub to: usize,
    /// Its sea route.
    pub route: Route,
}

/// What the maps draw of a shipment's voyage.
#[derive(Debug, Clone, Default)]
pub struct VoyageView {
    /// The ports.
    pub voyage: Voyage,
    /// The vessel the container is on, or was last loaded on.
    pub vessel: Option<VesselRef>,
    /// What the feeds heard of it.
    pub heard: Option<HeardVessel>,
    /// Its track since the port of loading (or the last day), oldest first.
    pub path: Vec<Position>,
    /// The legs ahead.
    pub ahead: Vec<Leg>,
}

impl VoyageView {
    /// The voyage of `shipment`, from its containers' `events` and what the feeds heard.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn read(
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
    pub fn latest(&self) -> Option<Position> {
        self.heard.as_ref().and_then(|heard| heard.position)
    }

    /// Tidemark's own arrival estimate at the port of discharge at `now`: the legs ahead
    /// from the vessel's latest position (heard within [`RECENT`]) at its recent speed
    /// made good (a container ship's service speed while it is not under way), plus a
    /// [`PORT_STAY`] at each port between. None without a recent position, or without an
    /// unbroken route to the port of discharge.
    #[must_use]
    pub fn prediction(&self, now: Timestamp) -> Prediction {
        Prediction {
            arrival: self.predicted_arrival(now),
        }
    }

    fn predicted_arrival(&self, now: Timestamp) -> Option<Timestamp> {
        let latest = self.latest()?;
        if now.seconds_since(latest.at) > RECENT.as_secs_f64() {
            return None;
        }
        let pod = self.voyage.stops.len().checked_sub(1)?;
        let to_pod = self.voyage.stops[pod].label == "POD"
            && self.ahead.first().is_some_and(|leg| leg.from.is_none())
            && self.ahead.last().is_some_and(|leg| leg.to == pod)
            && self
                .ahead
                .windows(2)
                .all(|pair| pair[1].from == Some(pair[0].to));
        if !to_pod {
            return None;
        }
        let knots = recent_speed(&latest, &self.path).unwrap_or(SERVICE_SPEED_KNOTS);
        let legs: Vec<&Route> = self.ahead.iter().map(|leg| &leg.route).collect();
        forecast::predicted_arrival(latest.at, &legs, knots, PORT_STAY)
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
