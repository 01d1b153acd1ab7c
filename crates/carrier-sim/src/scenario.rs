//! The scripted numbers of the sandbox carrier `TEST` (api.md §6): each behaves the same
//! way every time, so tests and demos can rely on it.

use time::Duration;

use crate::world::{Outcome, Placement};

/// The SCAC of the sandbox carrier.
pub const SANDBOX_SCAC: &str = "TEST";

/// How a scripted number behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Script {
    /// A shipment with this outcome, placed so.
    Shipment(Outcome, Placement),
    /// Booked but not manifested until this lookup (1 = the first).
    ManifestedFromLookup(u32),
    /// The first lookups fail with 503, later ones succeed.
    FailFirstLookups(u32),
    /// Every lookup fails with 503.
    AlwaysFail,
    /// Every lookup is answered 404 with a DCSA error: no shipment has this reference.
    Unknown,
}

/// The script of `reference` at `scac`, if it is one of the sandbox numbers.
#[must_use]
pub fn script(scac: &str, reference: &str) -> Option<Script> {
    if !scac.eq_ignore_ascii_case(SANDBOX_SCAC) {
        return None;
    }
    let sailing = Placement::Before(Duration::days(20));
    Some(match reference {
        "TEST-TR-SUCCEEDED" => Script::Shipment(Outcome::Sails, sailing),
        "TEST-TR-FAILED" => Script::Unknown,
        "TEST-TR-NOT-FOUND" => Script::Shipment(Outcome::Unknown, sailing),
        "TEST-TR-AWAITING-MANIFEST" => Script::ManifestedFromLookup(2),
        "TEST-TR-RETRY" => Script::FailFirstLookups(2),
        "TEST-TR-RETRIES-EXHAUSTED" => Script::AlwaysFail,
        "TEST-TR-CANCELLED" => Script::Shipment(Outcome::Cancelled, sailing),
        "TEST-TR-JOURNEY" => Script::Shipment(Outcome::Sails, Placement::AtEpoch),
        "TEST-TR-HOLDS" => {
            Script::Shipment(Outcome::Sails, Placement::Discharging(Duration::hours(12)))
        }
        "TEST-TR-LFD-EXTENDED" | "TEST-TR-RELEASE-TAKEN-BACK" => {
            Script::Shipment(Outcome::Sails, Placement::Discharging(Duration::hours(-12)))
        }
        _ => return None,
    })
}

/// What the terminal of discharge does with a scripted number's boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TerminalScript {
    /// The vessel arrives twelve hours after the epoch; customs holds each box pending
    /// until discharge and then for a day (with an exam fee), the line holds it for its
    /// freight until twelve hours after discharge; available after both clear.
    Holds,
    /// The vessel arrived twelve hours before the epoch; the terminal's last free day, three
    /// days after discharge, is extended by two days a day after discharge.
    LfdExtended,
    /// The vessel arrived twelve hours before the epoch; each box is available two hours
    /// after discharge, then customs holds it from ten to twenty hours after discharge
    /// while the terminal's availability flag still says available (a stale flag), then it
    /// is available again until the line's gate-out, after which the terminal reports it
    /// out-gated.
    ReleaseTakenBack,
}

/// The terminal script of `reference` at `scac`, if it is one of the sandbox numbers.
#[must_use]
pub fn terminal_script(scac: &str, reference: &str) -> Option<TerminalScript> {
    if !scac.eq_ignore_ascii_case(SANDBOX_SCAC) {
        return None;
    }
    match reference {
        "TEST-TR-HOLDS" => Some(TerminalScript::Holds),
        "TEST-TR-LFD-EXTENDED" => Some(TerminalScript::LfdExtended),
        "TEST-TR-RELEASE-TAKEN-BACK" => Some(TerminalScript::ReleaseTakenBack),
        _ => None,
    }
}
