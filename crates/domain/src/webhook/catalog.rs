//! The events a webhook can subscribe to (api.md §5): what Tidemark records, and the names
//! of the reference catalog it accepts without recording them yet.

use crate::EventName;

/// Names clients of the reference API subscribe to that need data Tidemark does not have
/// yet (feeder legs, berthing, rail and inland moves, documents). They are accepted, so such
/// clients can subscribe unchanged, and listed as not produced.
const NOT_PRODUCED: [&str; 10] = [
    "container.transport.feeder_arrived",
    "container.transport.feeder_discharged",
    "container.transport.feeder_loaded",
    "container.transport.feeder_departed",
    "container.transport.vessel_berthed",
    "container.transport.delivered",
    "container.transport.arrived_at_inland_destination",
    "container.transport.estimated.arrived_at_inland_destination",
    "document.extracted",
    "document.extraction_failed",
];

/// One event a webhook can subscribe to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscribable {
    /// Its name.
    pub name: String,
    /// What it means.
    pub description: &'static str,
    /// Whether Tidemark records it today.
    pub produced: bool,
}

/// Every event a webhook can subscribe to: what Tidemark records, then the names of the
/// reference catalog it does not record yet.
#[must_use]
pub fn subscribable() -> Vec<Subscribable> {
    let mut all: Vec<Subscribable> = EventName::catalog()
        .into_iter()
        .map(|(event, description)| Subscribable {
            name: event.name(),
            description,
            produced: true,
        })
        .collect();
    for name in NOT_PRODUCED {
        if !all.iter().any(|known| known.name == name) {
            all.push(Subscribable {
                name: name.to_owned(),
                description: "Accepted for compatibility; Tidemark does not record it yet (it needs feeder, berth, rail, inland or document data).",
                produced: false,
            });
        }
    }
    all
}

/// Why a name is not an event Tidemark records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotRecorded {
    /// A name of the reference catalog Tidemark accepts but does not record yet.
    NotYet,
    /// No event has this name.
    Unknown,
}

/// The event `name` names, when Tidemark records it today (a sample of it can be made).
///
/// # Errors
/// Why not: not yet recorded, or unknown.
pub fn recorded_event(name: &str) -> Result<EventName, NotRecorded> {
    match subscribable().into_iter().find(|s| s.name == name) {
        Some(listed) if listed.produced => EventName::parse(name).ok_or(NotRecorded::Unknown),
        Some(_) => Err(NotRecorded::NotYet),
        None => Err(NotRecorded::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_holds_what_is_recorded_and_the_reference_names() {
        let all = subscribable();
        let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
        for produced in [
            "tracking_request.succeeded",
            "container.transport.vessel_departed",
            "shipment.estimated.arrival",
            "container.transport.available",
            "container.transport.not_available",
            "container.pickup_lfd.changed",
            "container.pickup_lfd_line.changed",
            "container.pickup_lfd_terminal.changed",
            "container.pickup_lfd_rail.changed",
            "container.pickup_appointment.changed",
            "container.pod_terminal_changed",
        ] {
            assert!(
                all.iter().any(|s| s.name == produced && s.produced),
                "{produced}"
            );
        }
        assert!(
            all.iter()
                .any(|s| s.name == "container.transport.vessel_berthed" && !s.produced)
        );
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "no name twice");
    }

    #[test]
    fn only_recorded_events_have_samples() {
        assert_eq!(
            recorded_event("container.transport.vessel_departed").map(EventName::name),
            Ok("container.transport.vessel_departed".to_owned())
        );
        assert_eq!(
            recorded_event("container.transport.vessel_berthed"),
            Err(NotRecorded::NotYet)
        );
        assert_eq!(
            recorded_event("container.teleported"),
            Err(NotRecorded::Unknown)
        );
    }
}
