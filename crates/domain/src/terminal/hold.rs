//! Holds at the terminal of discharge (api.md §4a): what stops a pickup. Names and states
//! as the reference API has them; a cleared hold leaves the list (there is no `released`).

use serde::{Deserialize, Serialize};

/// Who holds the container.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HoldName {
    /// The line's: freight not paid or the bill not surrendered.
    Freight,
    /// Customs.
    Customs,
    /// The US Department of Agriculture.
    Usda,
    /// A customs X-ray (Vehicle and Cargo Inspection System).
    Vacis,
    /// A terminal's fee (Traffic Mitigation Fee, Los Angeles and Long Beach).
    Tmf,
    /// Any other.
    Other,
}

impl HoldName {
    /// Every name, in the order lists show them.
    pub const ALL: [Self; 6] = [
        Self::Freight,
        Self::Customs,
        Self::Usda,
        Self::Vacis,
        Self::Tmf,
        Self::Other,
    ];

    /// The wire name (case matters: `USDA`, `VACIS`, `TMF`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Freight => "freight",
            Self::Customs => "customs",
            Self::Usda => "USDA",
            Self::Vacis => "VACIS",
            Self::Tmf => "TMF",
            Self::Other => "other",
        }
    }

    /// Parses the wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|name| name.as_str() == text)
    }
}

/// Where a hold stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HoldStatus {
    /// Announced or being decided: not yet blocking.
    Pending,
    /// Blocking the pickup.
    Hold,
}

impl HoldStatus {
    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Hold => "hold",
        }
    }

    /// Parses the wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        [Self::Pending, Self::Hold]
            .into_iter()
            .find(|status| status.as_str() == text)
    }
}

/// One hold on a container.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hold {
    /// Who holds it.
    pub name: HoldName,
    /// Whether it blocks the pickup yet.
    pub status: HoldStatus,
    /// What the source says of it.
    pub description: Option<String>,
}

impl Hold {
    /// Whether it stops a pickup now.
    #[must_use]
    pub fn blocks(&self) -> bool {
        self.status == HoldStatus::Hold
    }
}

/// A container's holds as one list: one per name (the blocking one where a source gives
/// both), in [`HoldName::ALL`]'s order, so that two answers saying the same compare equal.
#[must_use]
pub fn normalized(holds: impl IntoIterator<Item = Hold>) -> Vec<Hold> {
    let mut list: Vec<Hold> = Vec::new();
    for hold in holds {
        match list.iter_mut().find(|kept| kept.name == hold.name) {
            Some(kept) if hold.status > kept.status => *kept = hold,
            Some(_) => {}
            None => list.push(hold),
        }
    }
    list.sort_by_key(|hold| hold.name);
    list
}

super::by_wire_name!(HoldName, "hold");
super::by_wire_name!(HoldStatus, "hold status");
