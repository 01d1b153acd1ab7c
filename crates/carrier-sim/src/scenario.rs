//! The scripted numbers of the sandbox carrier `TEST` (api.md §6): each behaves the same
//! way every time, so tests and demos can rely on it. Each plays on a timeline of its own,
//! placed around the instant it was first asked about ([`crate::Simulator::world_of`]),
//! so a newcomer sees its path within minutes of tracking it, whenever that is.

use time::Duration;

use crate::world::{Outcome, Placement};

/// The SCAC of the sandbox carrier.
pub const SANDBOX_SCAC: &str = "TEST";

/// How long after `TEST-TR-JOURNEY` is first asked about its vessel leaves, its
/// containers on board (the departure is recorded ten minutes later).
pub const JOURNEY_DEPARTS: Duration = Duration::minutes(2);

/// How long after `TEST-TR-LFD-EXTENDED` is first asked about the terminal extends its
/// last free day.
pub const LFD_EXTENDED_AFTER: Duration = Duration::minutes(3);

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
        "TEST-TR-JOURNEY" => {
            Script::Shipment(Outcome::Sails, Placement::Departing(JOURNEY_DEPARTS))
        }
        "TEST-TR-HOLDS" => {
            Script::Shipment(Outcome::Sails, Placement::Discharging(Duration::hours(12)))
        }
        "TEST-TR-LFD-EXTENDED" => {
            Script::Shipment(Outcome::Sails, Placement::Discharging(Duration::hours(-36)))
        }
        "TEST-TR-RELEASE-TAKEN-BACK" => {
            Script::Shipment(Outcome::Sails, Placement::Discharging(Duration::hours(-12)))
        }
        _ => return None,
    })
}

/// What the terminal of discharge does with a scripted number's boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TerminalScript {
    /// The vessel arrives twelve hours after the first ask; customs holds each box pending
    /// until discharge and then for a day (with an exam fee), the line holds it for its
    /// freight until twelve hours after discharge; available after both clear.
    Holds,
    /// The vessel arrived a day and a half before the first ask; the terminal's last free
    /// day, three days after discharge, is extended by two days [`LFD_EXTENDED_AFTER`] the
    /// first ask.
    LfdExtended,
    /// The vessel arrived twelve hours before the first ask; each box is available two hours
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
