//! A container of a shipment: its details, its equipment read from the ISO 6346
//! size-type code, and its status.

use serde::{Deserialize, Serialize};

use crate::{AccountId, ContainerId, ContainerStatus, ShipmentId, Timestamp};

/// The container's equipment, read from its ISO 6346 size-type code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Equipment {
    /// `dry`, `reefer`, `open top`, `flat rack`, `bulk`, `tank`.
    pub kind: Option<&'static str>,
    /// Length in feet: 10, 20, 40 or 45.
    pub length: Option<u8>,
    /// `standard` or `high_cube`.
    pub height: Option<&'static str>,
}

impl Equipment {
    /// Reads a size-type code such as `45G1` (ISO 6346 annex E); unknown parts stay `None`.
    #[must_use]
    pub fn from_iso_code(code: &str) -> Self {
        let bytes = code.as_bytes();
        if bytes.len() != 4 {
            return Self::default();
        }
        let length = match bytes[0] {
            b'1' => Some(10),
            b'2' => Some(20),
            b'4' => Some(40),
            b'L' => Some(45),
            _ => None,
        };
        let height = match bytes[1] {
            b'0' | b'2' => Some("standard"),
            b'5' => Some("high_cube"),
            _ => None,
        };
        let kind = match bytes[2] {
            b'G' | b'V' => Some("dry"),
            b'R' | b'H' => Some("reefer"),
            b'U' => Some("open top"),
            b'P' => Some("flat rack"),
            b'B' => Some("bulk"),
            b'T' => Some("tank"),
            _ => None,
        };
        Self {
            kind,
            length,
            height,
        }
    }
}

/// A container's carrier-reported details. Times the carrier did not give stay `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContainerDetails {
    /// Seal number.
    pub seal_number: Option<String>,
    /// ISO size-type code, e.g. `45G1`.
    pub iso_code: Option<String>,
    /// The terminal of discharge (its SMDG or BIC code).
    pub pod_terminal: Option<String>,
    /// The port of discharge's UN/LOCODE.
    pub pod_locode: Option<String>,
    /// Where it was returned empty (UN/LOCODE).
    pub empty_terminated_locode: Option<String>,
    /// Empty picked up for stuffing.
    pub empty_out_at: Option<Timestamp>,
    /// Gated in full at the port of loading.
    pub pol_full_in_at: Option<Timestamp>,
    /// Loaded at the port of loading.
    pub pol_vessel_loaded_at: Option<Timestamp>,
    /// The vessel left the port of loading.
    pub pol_vessel_departed_at: Option<Timestamp>,
    /// The vessel arrived at the port of discharge.
    pub pod_arrived_at: Option<Timestamp>,
    /// Discharged at the port of discharge.
    pub pod_discharged_at: Option<Timestamp>,
    /// Gated out full at the port of discharge.
    pub pod_full_out_at: Option<Timestamp>,
    /// Returned empty.
    pub empty_terminated_at: Option<Timestamp>,
}

impl ContainerDetails {
    /// The equipment named by the size-type code.
    #[must_use]
    pub fn equipment(&self) -> Equipment {
        self.iso_code
            .as_deref()
            .map(Equipment::from_iso_code)
            .unwrap_or_default()
    }
}

/// A container of a shipment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    /// Its id.
    pub id: ContainerId,
    /// The owning account.
    pub account_id: AccountId,
    /// Its shipment.
    pub shipment_id: ShipmentId,
    /// ISO 6346 number.
    pub number: String,
    /// Where it is.
    pub current_status: ContainerStatus,
    /// The client's reference numbers.
    pub ref_numbers: Vec<String>,
    /// What the carrier reports.
    pub details: ContainerDetails,
    /// What is known of it at its terminal of discharge (api.md §4a).
    pub terminal: crate::terminal::TerminalView,
    /// When a terminal last answered for it (api.md §4a); none until one has.
    pub terminal_checked_at: Option<Timestamp>,
    /// Until when its terminal pushes what changes (a subscription it accepted); none when
    /// it is only polled.
    pub terminal_subscribed_until: Option<Timestamp>,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

impl Container {
    /// How it stands: its status, availability, holds and last free day decided together
    /// ([`crate::terminal::TerminalView::standing`]), as every answer shows them.
    #[must_use]
    pub fn standing(&self) -> crate::terminal::Standing {
        self.terminal.standing(self.current_status)
    }

    /// The local date its last free day that counts is at its port of discharge
    /// ([`crate::local_time::date_at`]): what "last free day before" filters compare.
    #[must_use]
    pub fn pickup_lfd_day(&self) -> Option<String> {
        let pod = self.details.pod_locode.as_deref();
        let lfd = self.standing().pickup_lfd?;
        Some(crate::local_time::date_at(lfd, pod).0)
    }

    /// The code of its terminal of discharge: as a source last named it, else as the
    /// line's events did; `None` when neither names a valid one.
    #[must_use]
    pub fn terminal_code(&self) -> Option<crate::terminal::TerminalCode> {
        self.terminal
            .pod_terminal
            .as_ref()
            .map(|terminal| terminal.code.as_str())
            .or(self.details.pod_terminal.as_deref())
            .and_then(|code| crate::terminal::TerminalCode::parse(code).ok())
    }
}
