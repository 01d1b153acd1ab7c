//! What a new terminal view changes: the events to record and the `container.updated`
//! changeset. An answer that says what the last one said changes nothing.

use serde_json::{Value, json};

use super::{DataSource, TerminalView};
use crate::Timestamp;
use crate::events::Changeset;

/// An event a terminal view's change records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TerminalEvent {
    /// `container.transport.available`: the source released it for pickup.
    Available,
    /// `container.transport.not_available`: the source says it may not be picked up.
    NotAvailable,
    /// `container.pickup_lfd.changed`: the last free day that counts moved.
    PickupLfd,
    /// `container.pickup_lfd_line.changed`.
    PickupLfdLine,
    /// `container.pickup_lfd_terminal.changed`.
    PickupLfdTerminal,
    /// `container.pickup_lfd_rail.changed`.
    PickupLfdRail,
    /// `container.pickup_appointment.changed`.
    PickupAppointment,
    /// `container.pod_terminal_changed`, named by this source.
    PodTerminalChanged(DataSource),
    /// `container.updated`, with the changeset.
    Updated,
}

impl TerminalEvent {
    /// Every event, for the catalog.
    pub const ALL: [Self; 10] = [
        Self::Available,
        Self::NotAvailable,
        Self::PickupLfd,
        Self::PickupLfdLine,
        Self::PickupLfdTerminal,
        Self::PickupLfdRail,
        Self::PickupAppointment,
        Self::PodTerminalChanged(DataSource::ShippingLine),
        Self::PodTerminalChanged(DataSource::Terminal),
        Self::Updated,
    ];

    /// The event's name (`compat-api.md` §4.2).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Available => "container.transport.available",
            Self::NotAvailable => "container.transport.not_available",
            Self::PickupLfd => "container.pickup_lfd.changed",
            Self::PickupLfdLine => "container.pickup_lfd_line.changed",
            Self::PickupLfdTerminal => "container.pickup_lfd_terminal.changed",
            Self::PickupLfdRail => "container.pickup_lfd_rail.changed",
            Self::PickupAppointment => "container.pickup_appointment.changed",
            Self::PodTerminalChanged(_) => "container.pod_terminal_changed",
            Self::Updated => "container.updated",
        }
    }

    /// What it means, for the webhook catalog.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            Self::Available => "The container may be picked up at its terminal of discharge.",
            Self::NotAvailable => {
                "The terminal says the container may not be picked up (yet): on the vessel, held, or not released."
            }
            Self::PickupLfd => {
                "The last free day that counts (pickup_lfd: the line's, else the terminal's, else the rail's) changed; value is the new one."
            }
            Self::PickupLfdLine => "The shipping line's last free day changed.",
            Self::PickupLfdTerminal => "The terminal's last free day changed.",
            Self::PickupLfdRail => {
                "The rail last free day changed (recorded when a source reports one)."
            }
            Self::PickupAppointment => {
                "The pickup appointment at the terminal changed; value is the new one."
            }
            Self::PodTerminalChanged(_) => {
                "The container's terminal of discharge changed; data_source says who said so."
            }
            Self::Updated => "A container's terminal data changed; the changeset says what.",
        }
    }

    /// The new value an LFD or appointment event carries (`transport_event.value`); `None`
    /// for the others, or when the date was withdrawn.
    #[must_use]
    pub fn value(self, view: &TerminalView) -> Option<Timestamp> {
        let days = &view.last_free_days;
        match self {
            Self::PickupLfd => days.pickup_lfd(),
            Self::PickupLfdLine => days.line,
            Self::PickupLfdTerminal => days.terminal,
            Self::PickupLfdRail => days.rail,
            Self::PickupAppointment => view.pickup_appointment_at,
            _ => None,
        }
    }
}

/// What a new view changes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TerminalChange {
    /// The events to record, in this order.
    pub events: Vec<TerminalEvent>,
    /// What `container.updated` carries; empty when it is not among the events.
    pub changeset: Changeset,
}

impl TerminalChange {
    /// Whether the view changed nothing a client hears about.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

/// The events and the changeset of going from `before` to `after`.
#[must_use]
pub fn diff(before: &TerminalView, after: &TerminalView) -> TerminalChange {
    let mut events = Vec::new();
    // A hold in force takes availability back as surely as the terminal's own flag.
    if before.availability() != after.availability() {
        match after.availability() {
            Some(true) => events.push(TerminalEvent::Available),
            Some(false) => events.push(TerminalEvent::NotAvailable),
            None => {}
        }
    }
    let (old, new) = (&before.last_free_days, &after.last_free_days);
    for (changed, event) in [
        (
            before.pickup_lfd() != after.pickup_lfd(),
            TerminalEvent::PickupLfd,
        ),
        (old.line != new.line, TerminalEvent::PickupLfdLine),
        (
            old.terminal != new.terminal,
            TerminalEvent::PickupLfdTerminal,
        ),
        (old.rail != new.rail, TerminalEvent::PickupLfdRail),
        (
            before.pickup_appointment_at != after.pickup_appointment_at,
            TerminalEvent::PickupAppointment,
        ),
    ] {
        if changed {
            events.push(event);
        }
    }
    if let (Some(was), Some(is)) = (&before.pod_terminal, &after.pod_terminal)
        && was.code != is.code
    {
        events.push(TerminalEvent::PodTerminalChanged(is.source));
    }
    let changeset = changeset(before, after);
    if !changeset.is_empty() {
        events.push(TerminalEvent::Updated);
    }
    TerminalChange { events, changeset }
}

/// The alertable attributes of `container.updated` that differ.
fn changeset(before: &TerminalView, after: &TerminalView) -> Changeset {
    let shown = |view: &TerminalView| -> [(&'static str, Value); 6] {
        [
            ("available_for_pickup", json!(view.availability())),
            ("pickup_lfd", json!(view.pickup_lfd())),
            ("holds_at_pod_terminal", json!(view.holds)),
            ("fees_at_pod_terminal", json!(view.fees)),
            ("pickup_appointment_at", json!(view.pickup_appointment_at)),
            (
                "pod_terminal",
                json!(view.pod_terminal.as_ref().map(|terminal| &terminal.code)),
            ),
        ]
    };
    shown(before)
        .into_iter()
        .zip(shown(after))
        .filter(|((_, was), (_, is))| was != is)
        .map(|((name, was), (_, is))| (name.to_owned(), [was, is]))
        .collect()
}
