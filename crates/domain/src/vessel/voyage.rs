//! A shipment's voyage as a map draws it: its ports in order (the port of loading, the
//! transshipment ports its container's events name, the port of discharge), which it
//! has reached,
//! and the vessel it is on now.

use seaways::Point;

use crate::gazetteer::Gazetteer;
use crate::shipment::{Shipment, TransportEvent, TransportEventKind};
use crate::snapshot::{Milestone, VesselRef};

/// One port of the voyage.
#[derive(Debug, Clone, PartialEq)]
pub struct Stop {
    /// Its UN/LOCODE.
    pub locode: String,
    /// `POL`, `TS1`, `TS2` …, `POD`.
    pub label: String,
    /// Where it is.
    pub point: Point,
    /// Whether the shipment has reached it (the port of loading always has).
    pub reached: bool,
}

/// The ports of a voyage, in order, each with its place; ports Tidemark cannot place are
/// left out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Voyage {
    /// The ports.
    pub stops: Vec<Stop>,
}

const AT_TRANSSHIPMENT: [Milestone; 4] = [
    Milestone::TransshipmentArrived,
    Milestone::TransshipmentDischarged,
    Milestone::TransshipmentLoaded,
    Milestone::TransshipmentDeparted,
];

const ON_BOARD: [Milestone; 6] = [
    Milestone::VesselLoaded,
    Milestone::VesselDeparted,
    Milestone::TransshipmentLoaded,
    Milestone::TransshipmentDeparted,
    Milestone::FeederLoaded,
    Milestone::FeederDeparted,
];

/// The milestone an event says happened (estimates say nothing happened).
fn happened(event: &TransportEvent) -> Option<Milestone> {
    match event.kind {
        TransportEventKind::Actual(milestone) => Some(milestone),
        TransportEventKind::Estimated(_) => None,
    }
}

impl Voyage {
    /// The voyage of `shipment`, from its route and its container's `events`.
    #[must_use]
    pub fn of(shipment: &Shipment, events: &[TransportEvent]) -> Self {
        let route = &shipment.route;
        let pol = route
            .port_of_lading
            .as_ref()
            .map(|place| place.locode.clone());
        let pod = route
            .port_of_discharge
            .as_ref()
            .map(|place| place.locode.clone());
        let mut ordered: Vec<&TransportEvent> = events.iter().collect();
        ordered.sort_by_key(|event| event.timestamp);
        let mut transshipments: Vec<String> = Vec::new();
        for event in &ordered {
            let Some(milestone) = happened(event) else {
                continue;
            };
            let Some(place) = &event.location else {
                continue;
            };
            let is_end = Some(&place.locode) == pol.as_ref() || Some(&place.locode) == pod.as_ref();
            if AT_TRANSSHIPMENT.contains(&milestone)
                && !is_end
                && !transshipments.contains(&place.locode)
            {
                transshipments.push(place.locode.clone());
            }
        }
        let reached_ts = |locode: &str| {
            ordered.iter().any(|event| {
                happened(event).is_some_and(|m| AT_TRANSSHIPMENT.contains(&m))
                    && event
                        .location
                        .as_ref()
                        .is_some_and(|place| place.locode == locode)
            })
        };
        let pod_reached = route.pod_ata_at.is_some()
            || ordered.iter().any(|event| {
                matches!(
                    happened(event),
                    Some(Milestone::VesselArrived | Milestone::VesselDischarged)
                )
            });
        let mut labelled: Vec<(String, String, bool)> = Vec::new();
        if let Some(pol) = pol {
            labelled.push((pol, "POL".into(), true));
        }
        for (i, locode) in transshipments.into_iter().enumerate() {
            let reached = reached_ts(&locode);
            labelled.push((locode, format!("TS{}", i + 1), reached));
        }
        if let Some(pod) = pod {
            labelled.push((pod, "POD".into(), pod_reached));
        }
        let places = Gazetteer::bundled();
        let stops = labelled
            .into_iter()
            .filter_map(|(locode, label, reached)| {
                let place = places.port(&locode).or_else(|| places.place(&locode))?;
                Some(Stop {
                    point: Point::new(place.latitude, place.longitude),
                    locode,
                    label,
                    reached,
                })
            })
            .collect();
        Self { stops }
    }

    /// The first port not reached yet.
    #[must_use]
    pub fn next(&self) -> Option<usize> {
        self.stops.iter().position(|stop| !stop.reached)
    }
}

/// The vessel the container is on, or was last loaded on: the vessel of its latest
/// loading or departure, else the vessel the carrier names for the port of discharge.
#[must_use]
pub fn current_vessel(shipment: &Shipment, events: &[TransportEvent]) -> Option<VesselRef> {
    events
        .iter()
        .filter(|event| happened(event).is_some_and(|m| ON_BOARD.contains(&m)))
        .filter(|event| event.vessel.is_some())
        .max_by_key(|event| event.timestamp)
        .and_then(|event| event.vessel.clone())
        .or_else(|| shipment.route.pod_vessel.clone())
}
