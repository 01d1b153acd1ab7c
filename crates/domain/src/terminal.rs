//! What is known of a container at its terminal of discharge (api.md §4a;
//! `reference/terminal-data.md`): availability, holds, fees, last free days, the pickup
//! appointment and the yard location, from the terminal, the line's Arrival Notice and
//! DCSA T&T 3.0 events. The rules clients act on live here: when a container is ready
//! for pickup ([`TerminalView::ready_for_pickup`]), which last free day counts
//! ([`LastFreeDays::pickup_lfd`]), how the box stands, its status, availability and holds
//! decided together ([`TerminalView::standing`]), what
//! DCSA T&T 3.0's release events say ([`LineEvents`]) and do to it
//! ([`TerminalView::with_line_events`]), and what a new view changes ([`diff`]).

/// Serializes an enumeration by its `as_str` name and reads it back with its `parse`:
/// the wire names have one home, the enumeration's own.
macro_rules! by_wire_name {
    ($kind:ty, $what:literal) => {
        impl serde::Serialize for $kind {
            fn serialize<S: serde::Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
                out.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $kind {
            fn deserialize<D: serde::Deserializer<'de>>(input: D) -> Result<Self, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(input)?;
                Self::parse(&text).ok_or_else(|| {
                    <D::Error as serde::de::Error>::custom(format!("unknown {} {text:?}", $what))
                })
            }
        }
    };
}
use by_wire_name;

mod code;
mod diff;
pub mod fee;
pub mod hold;
mod lfd;
mod notice;
mod release;
mod report;
mod standing;

pub use code::TerminalCode;
pub use diff::{TerminalChange, TerminalEvent, diff};
pub use fee::{Amount, Currency, Fee, FeeType};
pub use hold::{Hold, HoldName, HoldStatus};
pub use lfd::LastFreeDays;
pub use notice::{ContainerNotice, LineNotice};
pub use release::{LineEvents, ReleaseEvent};
pub use report::TerminalReport;
pub use standing::Standing;

use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// Who told Tidemark which terminal a container is discharged at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataSource {
    /// The shipping line (its events or Arrival Notice).
    ShippingLine,
    /// The terminal itself.
    Terminal,
}

impl DataSource {
    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ShippingLine => "shipping_line",
            Self::Terminal => "terminal",
        }
    }

    /// Parses the wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        [Self::ShippingLine, Self::Terminal]
            .into_iter()
            .find(|source| source.as_str() == text)
    }
}

by_wire_name!(DataSource, "data source");

/// The terminal of discharge and who named it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PodTerminal {
    /// Its code (SMDG, BIC facility or FIRMS).
    pub code: String,
    /// Who named it.
    pub source: DataSource,
}

/// A container at its terminal of discharge, as the sources last told it. Lists are kept
/// normalized ([`hold::normalized`], [`fee::normalized`]) so equal answers compare equal.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TerminalView {
    /// Whether any source reports availability for it.
    pub availability_known: bool,
    /// Whether it may be picked up, as the source says (meaningful when known).
    pub available_for_pickup: Option<bool>,
    /// Holds in force or pending; a cleared hold is not listed.
    pub holds: Vec<Hold>,
    /// Fees owed.
    pub fees: Vec<Fee>,
    /// Last free days per source.
    pub last_free_days: LastFreeDays,
    /// The pickup appointment made at the terminal.
    pub pickup_appointment_at: Option<Timestamp>,
    /// Where it stands in the yard, as the terminal writes it.
    pub location: Option<String>,
    /// The terminal of discharge, once a source names it.
    pub pod_terminal: Option<PodTerminal>,
    /// Where it is to be picked up, when not at the terminal of discharge (off-dock).
    pub pickup_facility: Option<String>,
    /// The shipping line's word from its Arrival Notice ([`notice`]).
    pub line: LineNotice,
    /// The shipping line's word from its DCSA 3.0 release events ([`release`]).
    pub line_events: LineEvents,
}

impl TerminalView {
    /// Ready for pickup: available, and no hold blocking. When the sources disagree (a
    /// terminal says available while the line still holds it) it is not ready.
    #[must_use]
    pub fn ready_for_pickup(&self) -> bool {
        self.availability() == Some(true)
    }

    /// Whether a hold blocks the pickup (a `pending` one does not yet).
    #[must_use]
    pub fn has_holds(&self) -> bool {
        self.holds.iter().any(Hold::blocks)
    }

    /// `pickup_lfd` ([`LastFreeDays::pickup_lfd`]).
    #[must_use]
    pub fn pickup_lfd(&self) -> Option<Timestamp> {
        self.last_free_days.pickup_lfd()
    }
}

#[cfg(test)]
mod tests;
