//! Number inference: from a bare number to its type and the carriers likely to track it,
//! each with a confidence and the evidence behind it (api.md §3).
//!
//! The evidence, strongest first:
//! - a valid ISO 6346 container number whose owner prefix is registered to a carrier;
//! - a bill of lading or booking starting with a carrier's own code in the carrier's shape;
//! - a bare shape a carrier (or a group sharing one numbering) uses;
//! - a lessor prefix of a lessor dedicated to one carrier (never enough to select).
//!
//! Confidences are hundredths. When the shapes of several unrelated groups match, their
//! confidences are scaled to add up to at most one, so two equally plausible carriers are
//! never both reported as likely.

use std::fmt;

use crate::container_number::{ContainerNumber, InvalidContainerNumber};
use crate::number_shapes::{Shape, ShapeType};
use crate::{Carrier, CarrierMatrix, Lessor, RequestType};

/// The confidence of a carrier whose registered container prefix the number carries.
pub const OWNER_PREFIX: Confidence = Confidence(97);
/// The same when the check digit fails: the number is probably mistyped.
pub const OWNER_PREFIX_FAILED_CHECK: Confidence = Confidence(90);
/// The confidence of the carrier a lessor is dedicated to: boxes of such lessors still
/// travel with other lines, so this never reaches a prediction.
pub const LESSOR_AFFILIATION: Confidence = Confidence(40);
/// Shortest and longest bills of lading and bookings the shapes of the matrix know of,
/// with margin; outside them a number is judged invalid.
pub const SHIPMENT_NUMBER_CHARS: std::ops::RangeInclusive<usize> = 6..=20;

/// A confidence in hundredths (0 to 100).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Confidence(u8);

impl Confidence {
    /// From hundredths, capped at 100.
    #[must_use]
    pub const fn from_percent(percent: u8) -> Self {
        Self(if percent > 100 { 100 } else { percent })
    }

    /// In hundredths.
    #[must_use]
    pub const fn percent(self) -> u8 {
        self.0
    }

    /// As a number in [0, 1], as the API writes it.
    #[must_use]
    pub fn value(self) -> f64 {
        f64::from(self.0) / 100.0
    }
}

/// What to do with the best candidate (api.md §3 thresholds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Confidence ≥ 0.95 on a number that is not invalid: use the SCAC.
    AutoSelect,
    /// Confidence 0.70 to 0.95: ask the user.
    NeedsConfirmation,
    /// Below 0.70, or no candidate.
    NoPrediction,
}

impl Decision {
    /// Every decision, in the order the API lists them.
    pub const ALL: [Self; 3] = [
        Self::AutoSelect,
        Self::NeedsConfirmation,
        Self::NoPrediction,
    ];

    /// The thresholds of api.md §3.
    #[must_use]
    pub const fn of(confidence: Confidence) -> Self {
        match confidence.0 {
            95.. => Self::AutoSelect,
            70..=94 => Self::NeedsConfirmation,
            _ => Self::NoPrediction,
        }
    }

    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::AutoSelect => "auto_select",
            Self::NeedsConfirmation => "needs_confirmation",
            Self::NoPrediction => "no_prediction",
        }
    }
}

/// What kind of number it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberType {
    /// An ISO 6346 container number.
    Container,
    /// A master bill of lading.
    BillOfLading,
    /// A booking number.
    Booking,
}

impl NumberType {
    /// Every type, in the order the API lists them.
    pub const ALL: [Self; 3] = [Self::Container, Self::BillOfLading, Self::Booking];

    /// The wire name (`booking`, where a tracking request says `booking_number`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Container => "container",
            Self::BillOfLading => "bill_of_lading",
            Self::Booking => "booking",
        }
    }

    /// The tracking request type for this kind of number.
    #[must_use]
    pub const fn request_type(self) -> RequestType {
        match self {
            Self::Container => RequestType::Container,
            Self::BillOfLading => RequestType::BillOfLading,
            Self::Booking => RequestType::BookingNumber,
        }
    }
}

impl From<ShapeType> for NumberType {
    fn from(value: ShapeType) -> Self {
        match value {
            ShapeType::BillOfLading => Self::BillOfLading,
            ShapeType::Booking => Self::Booking,
        }
    }
}

/// Which format rules judged the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FormatKind {
    /// ISO 6346.
    Container,
    /// The carriers' bill of lading and booking shapes.
    Shipment,
}

impl FormatKind {
    /// Both kinds, in the order the API lists them.
    pub const ALL: [Self; 2] = [Self::Container, Self::Shipment];

    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Container => "container",
            Self::Shipment => "shipment",
        }
    }
}

/// Why a number is invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Nothing but spaces and hyphens.
    Empty,
    /// A character no carrier uses in its numbers.
    Character(char),
    /// Letters only.
    NoDigits,
    /// Too short or too long for any carrier's number.
    Length(usize),
    /// A container number whose check digit is wrong.
    CheckDigit {
        /// The digit the number carries.
        found: u8,
        /// The digit the first ten characters give.
        expected: u8,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("the number is empty"),
            Self::Character(c) => write!(
                f,
                "contains {c:?}; container, bill of lading and booking numbers are letters and digits"
            ),
            Self::NoDigits => f.write_str("has no digits; every carrier number has some"),
            Self::Length(n) => write!(
                f,
                "{n} characters; bills of lading and bookings have {} to {}",
                SHIPMENT_NUMBER_CHARS.start(),
                SHIPMENT_NUMBER_CHARS.end()
            ),
            Self::CheckDigit { found, expected } => write!(
                f,
                "fails the ISO 6346 check digit: the last digit is {found}, the first ten characters give {expected}"
            ),
        }
    }
}

/// The format verdict (`validation` in the API).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validation {
    /// True when valid, false when invalid, none when the format cannot be judged.
    pub is_valid: Option<bool>,
    /// Which rules applied.
    pub kind: FormatKind,
    /// For container numbers, whether the ISO 6346 check digit passed.
    pub check_digit_passed: Option<bool>,
    /// Why it is invalid.
    pub problem: Option<Problem>,
}

/// Why a carrier is a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence<'m> {
    /// The container prefix is registered to the carrier.
    OwnerPrefix {
        /// The prefix.
        prefix: [u8; 4],
        /// The prefix is registered to several carriers of one group.
        group: Option<&'m str>,
        /// The number fails its check digit.
        failed_check_digit: bool,
    },
    /// The container prefix is a lessor's dedicated to the carrier.
    Lessor(&'m Lessor),
    /// The number has one of the carrier's shapes.
    Shape(&'m Shape),
}

/// A carrier that may track the number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate<'m> {
    /// The carrier.
    pub carrier: &'m Carrier,
    /// How likely tracking with this carrier finds the number.
    pub confidence: Confidence,
    /// Why.
    pub evidence: Evidence<'m>,
}

impl Candidate<'_> {
    /// The kind of number the evidence is about.
    fn request_type(&self) -> RequestType {
        match self.evidence {
            Evidence::OwnerPrefix { .. } | Evidence::Lessor(_) => RequestType::Container,
            Evidence::Shape(shape) => NumberType::from(shape.number_type).request_type(),
        }
    }
}

/// The candidate's `reason`: the evidence in words, and a warning when the carrier does
/// not track this kind of number.
impl fmt::Display for Candidate<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.carrier.name;
        match self.evidence {
            Evidence::OwnerPrefix {
                prefix,
                group,
                failed_check_digit,
            } => {
                let prefix = std::str::from_utf8(&prefix).unwrap_or("????");
                write!(f, "container prefix {prefix} is registered to {name}")?;
                if let Some(group) = group {
                    write!(f, " and shared within the {group} group")?;
                }
                if failed_check_digit {
                    f.write_str("; the check digit fails, so the number is probably mistyped")?;
                }
            }
            Evidence::Lessor(lessor) => write!(
                f,
                "container prefix {} belongs to {} ({}), which works mainly for {name}; its boxes also travel with other lines",
                lessor.prefix, lessor.owner, lessor.category
            )?,
            Evidence::Shape(shape) => f.write_str(&shape.description)?,
        }
        let kind = self.request_type();
        if !self.carrier.supports(kind) {
            let what = match kind {
                RequestType::Container => "container numbers",
                RequestType::BillOfLading => "bills of lading",
                RequestType::BookingNumber => "booking numbers",
            };
            write!(f, " ({name} cannot be tracked by {what} here)")?;
        }
        Ok(())
    }
}

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
    /// The decision for the best candidate. An invalid number is never auto-selected.
    #[must_use]
    pub fn decision(&self) -> Decision {
        let Some(best) = self.candidates.first() else {
            return Decision::NoPrediction;
        };
        match Decision::of(best.confidence) {
            Decision::AutoSelect if self.validation.is_valid == Some(false) => {
                Decision::NeedsConfirmation
            }
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
    if let Some(inference) = container(matrix, &normalized) {
        return inference;
    }
    shipment(matrix, normalized)
}

/// The ISO 6346 reading, when the number has a container number's layout (a slash
/// before the check digit is allowed).
fn container<'m>(matrix: &'m CarrierMatrix, normalized: &str) -> Option<Inference<'m>> {
    let (parsed_number, problem) = match ContainerNumber::parse(normalized) {
        Ok(number) => (String::from(number), None),
        Err(InvalidContainerNumber::CheckDigit {
            found,
            expected,
            normalized,
        }) => (normalized, Some(Problem::CheckDigit { found, expected })),
        Err(InvalidContainerNumber::Layout) => return None,
    };
    let bytes = parsed_number.as_bytes();
    let prefix = [bytes[0], bytes[1], bytes[2], bytes[3]];
    let failed = problem.is_some();
    let mut candidates = Vec::new();
    let owners = &parsed_number[..4];
    let mut owned: Vec<&Carrier> = matrix.prefix_owners(owners).collect();
    if !owned.is_empty() {
        // The group first, the brand second: the owner registering the fewest prefixes
        // is the most specific brand (SEAU → Sealand rather than Maersk).
        owned.sort_by_key(|carrier| carrier.container_prefixes.len());
        let group = (owned.len() > 1).then(|| owned[0].group.as_str());
        let confidence = if failed {
            OWNER_PREFIX_FAILED_CHECK
        } else {
            OWNER_PREFIX
        };
        candidates.extend(owned.into_iter().map(|carrier| Candidate {
            carrier,
            confidence,
            evidence: Evidence::OwnerPrefix {
                prefix,
                group,
                failed_check_digit: failed,
            },
        }));
    } else if let Some(lessor) = matrix.lessor(owners)
        && let Some(carrier) = lessor.affiliation.and_then(|scac| matrix.resolve(&scac))
    {
        candidates.push(Candidate {
            carrier,
            confidence: LESSOR_AFFILIATION,
            evidence: Evidence::Lessor(lessor),
        });
    }
    Some(Inference {
        number_type: Some(NumberType::Container),
        validation: Validation {
            is_valid: Some(!failed),
            kind: FormatKind::Container,
            check_digit_passed: Some(!failed),
            problem,
        },
        candidates,
        parsed_number,
    })
}

fn format_problem(normalized: &str) -> Option<Problem> {
    if normalized.is_empty() {
        return Some(Problem::Empty);
    }
    if let Some(c) = normalized.chars().find(|c| !c.is_ascii_alphanumeric()) {
        return Some(Problem::Character(c));
    }
    if !normalized.bytes().any(|b| b.is_ascii_digit()) {
        return Some(Problem::NoDigits);
    }
    if !SHIPMENT_NUMBER_CHARS.contains(&normalized.len()) {
        return Some(Problem::Length(normalized.len()));
    }
    None
}

/// The bill of lading and booking reading.
fn shipment(matrix: &CarrierMatrix, parsed_number: String) -> Inference<'_> {
    let mut inference = Inference {
        number_type: None,
        validation: Validation {
            is_valid: None,
            kind: FormatKind::Shipment,
            check_digit_passed: None,
            problem: format_problem(&parsed_number),
        },
        candidates: Vec::new(),
        parsed_number,
    };
    if inference.validation.problem.is_some() {
        inference.validation.is_valid = Some(false);
        return inference;
    }
    let matched: Vec<&Shape> = matrix.matching_shapes(&inference.parsed_number).collect();
    if matched.is_empty() {
        return inference;
    }
    // A number starting with a carrier's own code is explained by that code.
    let prefixed = matched.iter().any(|shape| shape.prefix.is_some());
    let mut candidates: Vec<Candidate<'_>> = Vec::new();
    for &shape in matched
        .iter()
        .filter(|shape| shape.prefix.is_some() == prefixed)
    {
        let confidence = Confidence(shape.confidence);
        for carrier in matrix.shape_carriers(shape) {
            match candidates
                .iter_mut()
                .find(|c| std::ptr::eq(c.carrier, carrier))
            {
                Some(existing) if existing.confidence >= confidence => {}
                Some(existing) => {
                    existing.confidence = confidence;
                    existing.evidence = Evidence::Shape(shape);
                }
                None => candidates.push(Candidate {
                    carrier,
                    confidence,
                    evidence: Evidence::Shape(shape),
                }),
            }
        }
    }
    share_between_groups(&mut candidates);
    candidates.sort_by_key(|candidate| std::cmp::Reverse(candidate.confidence));
    inference.number_type = match candidates.first().map(|c| c.evidence) {
        Some(Evidence::Shape(shape)) => Some(shape.number_type.into()),
        _ => None,
    };
    inference.validation.is_valid = Some(true);
    inference.candidates = candidates;
    inference
}

/// Scales the confidences so the groups' shares add up to at most one.
fn share_between_groups(candidates: &mut [Candidate<'_>]) {
    let mut groups: Vec<(&str, u32)> = Vec::new();
    for candidate in candidates.iter() {
        let confidence = u32::from(candidate.confidence.0);
        match groups
            .iter_mut()
            .find(|(group, _)| *group == candidate.carrier.group)
        {
            Some((_, best)) => *best = (*best).max(confidence),
            None => groups.push((&candidate.carrier.group, confidence)),
        }
    }
    let total: u32 = groups.iter().map(|(_, best)| best).sum();
    if total <= 100 {
        return;
    }
    for candidate in candidates {
        let scaled = u32::from(candidate.confidence.0) * 100 / total;
        candidate.confidence = Confidence(u8::try_from(scaled).unwrap_or(100));
    }
}

/// Why a SCAC could not be detected for a tracking request (`scac_auto_detect_failed`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AutoDetectFailure {
    /// No carrier reached `auto_select`.
    #[error("no carrier could be selected with confidence (the best was {best})")]
    NotConfident {
        /// The best candidate and its confidence in hundredths, or "none".
        best: String,
    },
    /// The number is not of the kind the request says.
    #[error("the number looks like a {inferred}, not a {requested}")]
    WrongType {
        /// What the number looks like.
        inferred: &'static str,
        /// What the request says.
        requested: &'static str,
    },
    /// The selected carrier does not track this kind of number.
    #[error("{scac} was selected but does not track {requested} numbers")]
    Unsupported {
        /// The selected carrier.
        scac: String,
        /// What the request says.
        requested: &'static str,
    },
}

/// The carrier a tracking request with `auto_detect_vocc_scac` and no SCAC is looked up
/// with: the inference's `auto_select` choice, provided the number is of the requested
/// kind and the carrier tracks that kind.
///
/// # Errors
/// Why no carrier can be used; the request then fails with `scac_auto_detect_failed`.
pub fn auto_detect<'m>(
    matrix: &'m CarrierMatrix,
    number: &str,
    requested: RequestType,
) -> Result<&'m Carrier, AutoDetectFailure> {
    let inference = infer(matrix, number);
    if let Some(inferred) = inference.number_type
        && inferred.request_type() != requested
    {
        return Err(AutoDetectFailure::WrongType {
            inferred: inferred.as_str(),
            requested: requested.as_str(),
        });
    }
    let best = inference.candidates.first();
    let selected = match (inference.decision(), best) {
        (Decision::AutoSelect, Some(best)) => best.carrier,
        (_, best) => {
            return Err(AutoDetectFailure::NotConfident {
                best: best.map_or_else(
                    || "none".to_owned(),
                    |c| format!("{} at {:.2}", c.carrier.scac, c.confidence.value()),
                ),
            });
        }
    };
    if !selected.supports(requested) {
        return Err(AutoDetectFailure::Unsupported {
            scac: selected.scac.to_string(),
            requested: requested.as_str(),
        });
    }
    Ok(selected)
}

#[cfg(test)]
mod tests;
