//! Number inference: from a bare number to its type and the carriers likely to track it,
//! each with a confidence and the evidence behind it (api.md §3).
//!
//! The evidence, strongest first:
//! - a valid ISO 6346 container number whose owner prefix is registered to one carrier
//!   (a prefix shared by several lines of a group asks the user which);
//! - a bill of lading or booking starting with a carrier's own code in the carrier's shape;
//! - a bare shape a carrier (or a group sharing one numbering) uses;
//! - a number starting with a carrier's code whose rest fits none of its shapes (the
//!   carrier is named, the number cannot be judged);
//! - a lessor prefix of a lessor dedicated to one carrier (never enough to select).
//!
//! Never confidently wrong: bills and bookings whose digits are placeholders
//! (`00000000`, `1234567`), container layouts with a
//! category letter other than U, J or Z, numbers one character off their carrier's only
//! length, and purchase orders, seals and hyphenated references are invalid with a reason
//! ([`validation`]). A container number that passes ISO 6346 is valid; a serial that runs
//! like a placeholder only asks for confirmation ([`Suspicion`]).
//!
//! Confidences are hundredths. When the shapes of several unrelated groups match, their
//! confidences are scaled to add up to at most one, so two equally plausible carriers are
//! never both reported as likely.

mod auto_detect;
mod container;
mod evidence;
pub mod input;
mod shipment;
mod types;
pub mod validation;

pub use auto_detect::{AutoDetectFailure, auto_detect};
pub use evidence::{Candidate, Evidence};
pub use types::{Confidence, Decision, NumberType};
pub use validation::{FormatKind, Problem, Suspicion, Validation};

use crate::CarrierMatrix;

/// The confidence of a carrier whose registered container prefix the number carries.
pub const OWNER_PREFIX: Confidence = Confidence::from_percent(97);
/// The same when the check digit fails: the number is probably mistyped.
pub const OWNER_PREFIX_FAILED_CHECK: Confidence = Confidence::from_percent(90);
/// The confidence of each line of a group sharing a registered prefix: which line a box
/// travels with is the user's to confirm.
pub const GROUP_PREFIX: Confidence = Confidence::from_percent(85);
/// The confidence of a line known to carry the prefix owner's boxes on bills of its own
/// (COSCO for an OOCL box): listed for the user, never selected.
pub const BOX_CARRIER: Confidence = Confidence::from_percent(50);
/// The confidence of a carrier whose code a number starts with when the rest fits none of
/// its shapes: worth asking about, never enough to select.
pub const NAMED_CARRIER: Confidence = Confidence::from_percent(75);
/// The confidence of the carrier a lessor is dedicated to: boxes of such lessors still
/// travel with other lines, so this never reaches a prediction.
pub const LESSOR_AFFILIATION: Confidence = Confidence::from_percent(40);
/// Shortest and longest bills of lading and bookings the shapes of the matrix know of,
/// with margin; outside them a number is judged invalid.
pub const SHIPMENT_NUMBER_CHARS: std::ops::RangeInclusive<usize> = 6..=20;

/// Everything inferred about one number.
#[derive(Debug, Clone, PartialEq)]
pub struct Inference<'m> {
    /// The number in normal form (upper case, without spaces and hyphens).
    pub parsed_number: String,
    /// What kind of number it is, when it can be told.
    pub number_type: Option<NumberType>,
    /// The format verdict.
    pub validation: Validation,
    /// Carriers, most likely first.
    pub candidates: Vec<Candidate<'m>>,
}

impl<'m> Inference<'m> {
    /// The decision for the best candidate. An invalid or suspicious number is never
    /// auto-selected.
    #[must_use]
    pub fn decision(&self) -> Decision {
        let Some(best) = self.candidates.first() else {
            return Decision::NoPrediction;
        };
        let doubtful =
            self.validation.is_valid == Some(false) || self.validation.suspicion.is_some();
        match Decision::of(best.confidence) {
            Decision::AutoSelect if doubtful => Decision::NeedsConfirmation,
            decision => decision,
        }
    }

    /// The best candidate, unless the decision is `no_prediction`.
    #[must_use]
    pub fn selected(&self) -> Option<&Candidate<'m>> {
        match self.decision() {
            Decision::NoPrediction => None,
            _ => self.candidates.first(),
        }
    }
}

/// Upper case without whitespace and hyphens.
fn normalize(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Infers the type and carrier of `text`. Never fails: every input gets a verdict.
#[must_use]
pub fn infer<'m>(matrix: &'m CarrierMatrix, text: &str) -> Inference<'m> {
    let normalized = normalize(text);
    if let Some(inference) = container::container(matrix, &normalized) {
        return inference;
    }
    shipment::shipment(matrix, text, normalized)
}

#[cfg(test)]
mod tests;
