//! DCSA Track & Trace 3.0 equipment events that speak of a container's release
//! (`equipmentEventTypeCode`, T&T 3.0 beta of 2026-05-25): what each does to the terminal
//! view. Mapped here so a 3.0 connector only has to deliver them.

use super::{Hold, HoldName, HoldStatus, TerminalView, hold};
use crate::Timestamp;

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

    /// `view` after this event happened.
    fn apply(self, view: &mut TerminalView) {
        let mut hold_for = |name, description: &str| {
            view.holds.push(Hold {
                name,
                status: HoldStatus::Hold,
                description: Some(description.to_owned()),
            });
        };
        match self {
            Self::AvailableForPickup => {
                view.availability_known = true;
                view.available_for_pickup = Some(true);
            }
            Self::CustomsReleased => view
                .holds
                .retain(|hold| !matches!(hold.name, HoldName::Customs | HoldName::Vacis)),
            Self::CustomsSelectedForInspection => {
                hold_for(HoldName::Customs, "Selected for customs inspection");
            }
            Self::CustomsSelectedForScan => {
                hold_for(HoldName::Vacis, "Selected for customs scan");
            }
        }
    }
}

/// `view` after the actual release events `events` (when each happened), applied oldest
/// first, so a release after a selection clears it and a selection after a release holds.
#[must_use]
pub fn after_release_events(
    view: &TerminalView,
    events: &[(Timestamp, ReleaseEvent)],
) -> TerminalView {
    let mut ordered = events.to_vec();
    ordered.sort_by_key(|(at, _)| *at);
    let mut next = view.clone();
    for (_, event) in ordered {
        event.apply(&mut next);
        next.holds = hold::normalized(std::mem::take(&mut next.holds));
    }
    next
}
