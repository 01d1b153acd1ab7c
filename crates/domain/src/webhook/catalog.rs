//! The events a webhook can subscribe to (api.md §5): what Tidemark records, and the names
//! of the reference catalog it accepts without recording them yet.

use crate::EventName;

/// Names clients of the reference API subscribe to that need data Tidemark does not have
/// yet (berthing, manual delivery, inland destinations, documents). They are accepted, so
/// such clients can subscribe unchanged, and listed as not produced. Each has an example
/// modelled on the recorded event whose shape the reference's own example gives it (none:
/// a document event, whose reference object is a `document`).
const NOT_PRODUCED: [(&str, Option<&str>); 6] = [
    (
        "container.transport.vessel_berthed",
        Some("container.transport.vessel_arrived"),
    ),
    (
        "container.transport.delivered",
        Some("container.transport.available"),
    ),
    (
        "container.transport.arrived_at_inland_destination",
        Some("container.transport.rail_arrived"),
    ),
    (
        "container.transport.estimated.arrived_at_inland_destination",
        Some("container.transport.estimated.vessel_arrived"),
    ),
    ("document.extracted", None),
    ("document.extraction_failed", None),
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
    /// Whether it is Tidemark's own, beyond the reference API's catalog.
    pub extension: bool,
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
            extension: event.is_extension(),
        })
        .collect();
    for (name, _) in NOT_PRODUCED {
        if !all.iter().any(|known| known.name == name) {
            all.push(Subscribable {
                name: name.to_owned(),
                description: "Accepted for compatibility; Tidemark does not record it yet (it needs berth, delivery, inland or document data). Its example is modelled on a recorded event.",
                produced: false,
                extension: false,
            });
        }
    }
    all
}

/// How an example of a catalog event is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Example {
    /// An event Tidemark records: a sample of it.
    Recorded(EventName),
    /// An event Tidemark does not record yet: a sample of the recorded event whose shape
    /// the reference gives it, under the event's own name.
    Like(EventName),
    /// A document event: its notification, whose reference object is a `document`, and
    /// nothing included.
    Document,
}

/// How to make an example of the catalog event `name`; `None` when no event has it.
#[must_use]
pub fn example_of(name: &str) -> Option<Example> {
    if let Some((_, model)) = NOT_PRODUCED.iter().find(|(known, _)| *known == name) {
        return Some(match model {
            Some(model) => Example::Like(EventName::parse(model)?),
            None => Example::Document,
        });
    }
    EventName::parse(name)
        .filter(|event| {
            subscribable()
                .iter()
                .any(|s| s.produced && s.name == event.name())
        })
        .map(Example::Recorded)
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
    fn every_event_of_the_catalog_has_an_example() {
        for event in subscribable() {
            let example = example_of(&event.name);
            assert!(example.is_some(), "{}", event.name);
            assert_eq!(
                matches!(example, Some(Example::Recorded(_))),
                event.produced,
                "{}",
                event.name
            );
            if let Some(Example::Like(model)) = example {
                assert!(
                    matches!(example_of(&model.name()), Some(Example::Recorded(_))),
                    "{} is modelled on a recorded event",
                    event.name
                );
            }
        }
        assert_eq!(
            example_of("container.transport.vessel_departed").map(|e| match e {
                Example::Recorded(event) => event.name(),
                _ => String::new(),
            }),
            Some("container.transport.vessel_departed".to_owned())
        );
        assert_eq!(example_of("document.extracted"), Some(Example::Document));
        assert_eq!(example_of("container.teleported"), None);
    }
}
