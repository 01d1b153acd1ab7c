//! How a box stands (api.md §4a): its `current_status`, whether it may be picked up, the
//! holds in force and its last free day, decided together from the milestones and the
//! terminal's reports. Every answer reads them from here (the API's documents, the
//! store's list filters, the console), so no page says a box is both gone and available,
//! or both held and available.
//!
//! - A box that has left full (`picked_up`, `delivered`, `empty_returned`) is not
//!   available and held by nothing at the terminal, whatever the terminal said before it
//!   left; its last free day stays, as the day its demurrage was counted from.
//! - At the terminal of discharge, a hold in force (`hold`, not `pending`) means not
//!   available, whatever a stale availability flag says; availability the terminal has not
//!   reported leaves the box `grounded`; a box released at an off-dock facility is
//!   `off_dock`.
//! - Before the terminal of discharge (and on rail), the milestones give the status; a
//!   hold in force still takes back any availability reported.

use super::{Hold, TerminalView};
use crate::{ContainerStatus, Timestamp};

/// A box's status, availability, holds and last free day, decided together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// `current_status`.
    pub status: ContainerStatus,
    /// `available_for_pickup`: none while no source has said.
    pub available_for_pickup: Option<bool>,
    /// `holds_at_pod_terminal`: in force or pending; none once the box has left.
    pub holds: Vec<Hold>,
    /// `pickup_lfd` ([`super::LastFreeDays::pickup_lfd`]).
    pub pickup_lfd: Option<Timestamp>,
}

impl Standing {
    /// Whether a hold in force blocks the pickup.
    #[must_use]
    pub fn on_hold(&self) -> bool {
        self.holds.iter().any(Hold::blocks)
    }
}

impl TerminalView {
    /// Availability as the sources give it, a hold in force taking it back: what the
    /// terminal's events (`available`, `not_available`) and `container.updated` compare.
    #[must_use]
    pub fn availability(&self) -> Option<bool> {
        if !self.availability_known {
            return None;
        }
        self.available_for_pickup
            .map(|free| free && !self.has_holds())
    }

    /// How the box stands after `milestones` (the status its voyage's milestones give, or
    /// the status decided before: deciding again changes nothing) and this view.
    #[must_use]
    pub fn standing(&self, milestones: ContainerStatus) -> Standing {
        let pickup_lfd = self.pickup_lfd();
        if milestones.gone() {
            return Standing {
                status: milestones,
                available_for_pickup: Some(false),
                holds: Vec::new(),
                pickup_lfd,
            };
        }
        let available = self.availability();
        let status = if !milestones.at_pod_terminal() {
            milestones
        } else {
            match available {
                None => ContainerStatus::Grounded,
                Some(true) if self.pickup_facility.is_some() => ContainerStatus::OffDock,
                Some(true) => ContainerStatus::Available,
                Some(false) => ContainerStatus::NotAvailable,
            }
        };
        Standing {
            status,
            available_for_pickup: available,
            holds: self.holds.clone(),
            pickup_lfd,
        }
    }
}
