//! DCSA Track & Trace 3.0 equipment events that speak of a container's release
//! (`equipmentEventTypeCode`, T&T 3.0 beta of 2026-05-25), and the line's word they add
//! up to ([`LineEvents`]). The line's whole answer is read at each lookup, so the word is
//! worked out again from every release event it holds, oldest first: a release after a
//! selection clears it, a selection after a release holds.

use serde::{Deserialize, Serialize};

use super::{Hold, HoldName, HoldStatus, hold};
use crate::Timestamp;
use crate::raw_event::{CarrierEvent, EventClassifier};

/// A release-related equipment event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReleaseEvent {
    /// `AVAILABLE_FOR_PICKUP`: the container may be picked up.
    AvailableForPickup,
    /// `CUSTOMS_RELEASED`: customs let it go (its inspection and scan holds clear).
    CustomsReleased,
    /// `CUSTOMS_SELECTED_FOR_INSPECTION`: customs hold it for an exam.
    CustomsSelectedForInspection,
    /// `CUSTOMS_SELECTED_FOR_SCAN`: customs hold it for an X-ray scan (VACIS).
    CustomsSelectedForScan,
}

impl ReleaseEvent {
    /// Every event, for parsing.
    pub const ALL: [Self; 4] = [
        Self::AvailableForPickup,
        Self::CustomsReleased,
        Self::CustomsSelectedForInspection,
        Self::CustomsSelectedForScan,
    ];

    /// The DCSA code.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Self::AvailableForPickup => "AVAILABLE_FOR_PICKUP",
            Self::CustomsReleased => "CUSTOMS_RELEASED",
            Self::CustomsSelectedForInspection => "CUSTOMS_SELECTED_FOR_INSPECTION",
            Self::CustomsSelectedForScan => "CUSTOMS_SELECTED_FOR_SCAN",
        }
    }

    /// Parses a DCSA code; other equipment events are not about release.
    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|event| event.code() == code)
    }
}

/// What the shipping line's release events say of a container.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LineEvents {
    /// When the line said it may be picked up (`AVAILABLE_FOR_PICKUP`).
    pub available_at: Option<Timestamp>,
    /// The customs holds its events leave in force: selected and not released since.
    pub holds: Vec<Hold>,
    /// When its events last spoke of customs: against the Arrival Notice's customs word,
    /// the newer one counts.
    pub customs_at: Option<Timestamp>,
}

impl LineEvents {
    /// The word of `events` (each with when it happened), taken oldest first.
    #[must_use]
    pub fn of(events: &[(Timestamp, ReleaseEvent)]) -> Self {
        let mut ordered = events.to_vec();
        ordered.sort_by_key(|(at, _)| *at);
        let mut word = Self::default();
        for (at, event) in ordered {
            word.take(at, event);
        }
        word
    }

    /// The word of a container's carrier events: the actual ones that speak of release.
    #[must_use]
    pub fn of_carrier(events: &[CarrierEvent]) -> Self {
        let release: Vec<(Timestamp, ReleaseEvent)> = events
            .iter()
            .filter(|event| event.classifier == EventClassifier::Actual)
            .filter_map(|event| ReleaseEvent::parse(&event.code).map(|kind| (event.at, kind)))
            .collect();
        Self::of(&release)
    }

    fn take(&mut self, at: Timestamp, event: ReleaseEvent) {
        let mut selected = |name, description: &str| {
            self.holds.push(Hold {
                name,
                status: HoldStatus::Hold,
                description: Some(description.to_owned()),
            });
            self.holds = hold::normalized(std::mem::take(&mut self.holds));
        };
        match event {
            ReleaseEvent::AvailableForPickup => {
                self.available_at.get_or_insert(at);
                return;
            }
            ReleaseEvent::CustomsReleased => self.holds.clear(),
            ReleaseEvent::CustomsSelectedForInspection => {
                selected(
                    HoldName::Customs,
                    "Selected for customs inspection (line event)",
                );
            }
            ReleaseEvent::CustomsSelectedForScan => {
                selected(HoldName::Vacis, "Selected for customs scan (line event)");
            }
        }
        self.customs_at = Some(at);
    }
}

impl super::TerminalView {
    /// This view after the line's release events said `events`: the holds they stand for
    /// replaced, and the container available when they say so while no terminal has said
    /// whether it is (the terminal is the authority on its own gate).
    #[must_use]
    pub fn with_line_events(&self, events: &LineEvents) -> Self {
        if *events == self.line_events {
            return self.clone();
        }
        let terminal: Vec<Hold> = self.terminal_holds().collect();
        let mut next = Self {
            holds: Self::merged_holds(terminal, &self.line, events),
            line_events: events.clone(),
            ..self.clone()
        };
        if !next.availability_known && events.available_at.is_some() {
            next.availability_known = true;
            next.available_for_pickup = Some(true);
        }
        next
    }
}
