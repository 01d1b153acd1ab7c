//! The format verdict: what makes a number invalid, and the reason given for it.
//!
//! Besides malformed input (characters, length) and a failed ISO 6346 check digit, a
//! number is invalid when a bill or booking is a placeholder (its digits all one digit or
//! a plain sequence), when it has a container's layout but a category letter other than U, J or
//! Z and nothing else explains it, when it is one character short or long of the only
//! length its carrier's prefix allows, and when its shape says it is something nobody
//! tracks (a purchase order, a seal, an internal reference).
//!
//! A container number whose ISO 6346 check digit and category letter pass is well formed,
//! whatever its serial: a serial that runs like a placeholder is only a [`Suspicion`],
//! which asks the user to confirm and never makes the number invalid.

use std::fmt;
use std::ops::RangeInclusive;

use super::SHIPMENT_NUMBER_CHARS;
use crate::ContainerNumber;

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

/// How a placeholder's digits run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run {
    /// One digit repeated (`0000000`).
    Repeated(char),
    /// Counting up (`1234567`).
    Ascending,
    /// Counting down (`7654321`).
    Descending,
}

impl Run {
    fn describe(self) -> String {
        match self {
            Self::Repeated(digit) => format!("the digit {digit} repeated"),
            Self::Ascending => "a sequence counting up".to_owned(),
            Self::Descending => "a sequence counting down".to_owned(),
        }
    }
}

/// What a number that nobody tracks looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Untrackable {
    /// A purchase order (`PO` and digits).
    PurchaseOrder,
    /// A seal (`SEAL`, `SL` or a carrier's seal prefix and digits).
    Seal,
    /// An internal reference written with hyphens (`SHA-2024-0457`).
    Reference,
}

impl Untrackable {
    const fn describe(self) -> &'static str {
        match self {
            Self::PurchaseOrder => "a purchase order number",
            Self::Seal => "a seal number",
            Self::Reference => "an internal reference (words, years and counters between hyphens)",
        }
    }
}

/// Why a number is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// Its digits are a placeholder, not a number anyone issued.
    Placeholder {
        /// The digits.
        digits: String,
        /// How they run.
        run: Run,
    },
    /// A container's layout whose category letter is not U, J or Z, under a prefix no
    /// carrier uses.
    Category(char),
    /// One character short of the shortest or long of the longest number the carrier's
    /// prefix allows.
    ShapeLength {
        /// The prefix naming the carrier.
        prefix: String,
        /// The carrier's name.
        carrier: String,
        /// Characters the carrier's numbers with this prefix have.
        expected: RangeInclusive<usize>,
        /// Characters this one has.
        found: usize,
    },
    /// Four letters under a registered container owner code and one digit too few or too
    /// many for a container number.
    ContainerLength {
        /// The owner code and category letter.
        owner: String,
        /// Characters this one has.
        found: usize,
    },
    /// Its shape is that of something nobody tracks.
    Untrackable(Untrackable),
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
            Self::Placeholder { digits, run } => write!(
                f,
                "is a placeholder: its digits {digits} are {}, not a number a carrier issued",
                run.describe()
            ),
            Self::Category(letter) => write!(
                f,
                "has a container number's layout, but its fourth letter {letter:?} is no ISO 6346 category (U, J or Z) and its prefix is no carrier's"
            ),
            Self::ShapeLength {
                prefix,
                carrier,
                expected,
                found,
            } => {
                let off = if found < expected.start() {
                    "short"
                } else {
                    "long"
                };
                let (shortest, longest) = (expected.start(), expected.end());
                let have = if shortest == longest {
                    shortest.to_string()
                } else {
                    format!("{shortest} to {longest}")
                };
                write!(
                    f,
                    "{found} characters, one {off}: numbers of {carrier} starting {prefix} have {have}"
                )
            }
            Self::ContainerLength { owner, found } => {
                let off = if *found < ContainerNumber::LEN {
                    "short"
                } else {
                    "long"
                };
                write!(
                    f,
                    "{found} characters, one digit {off}: {owner} is a registered container owner code, and container numbers (ISO 6346) have {}",
                    ContainerNumber::LEN
                )
            }
            Self::Untrackable(kind) => write!(
                f,
                "looks like {}; only container, bill of lading and booking numbers can be tracked",
                kind.describe()
            ),
        }
    }
}

/// Why a well-formed number may still not be a real one: it lowers the decision to
/// `needs_confirmation` and never makes the number invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Suspicion {
    /// The serial of a container number runs like a placeholder.
    Placeholder {
        /// The digits.
        digits: String,
        /// How they run.
        run: Run,
    },
}

impl fmt::Display for Suspicion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Placeholder { digits, run } => write!(
                f,
                "its serial {digits} is {}, as placeholders are; the check digit passes, so confirm the number before tracking it",
                run.describe()
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
    /// Why a number that is not invalid may still not be a real one.
    pub suspicion: Option<Suspicion>,
}

/// What makes `normalized` no carrier's number at all, whatever its shape.
pub(super) fn format_problem(normalized: &str) -> Option<Problem> {
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

/// Fewest digits that make a run a placeholder.
const PLACEHOLDER_DIGITS: usize = 6;

/// How `digits` run, if they are a placeholder's: at least six digits, all one digit or
/// counting up or down by one.
#[must_use]
pub fn placeholder_run(digits: &str) -> Option<Run> {
    let bytes = digits.as_bytes();
    if bytes.len() < PLACEHOLDER_DIGITS || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let steps = |step: i16| {
        bytes
            .windows(2)
            .all(|pair| i16::from(pair[1]) - i16::from(pair[0]) == step)
    };
    if steps(0) {
        Some(Run::Repeated(char::from(bytes[0])))
    } else if steps(1) {
        Some(Run::Ascending)
    } else if steps(-1) {
        Some(Run::Descending)
    } else {
        None
    }
}

/// The placeholder `digits` are, if they are one ([`placeholder_run`]): what makes a bill
/// or booking invalid, which has no check digit to vouch for it.
#[must_use]
pub fn placeholder(digits: &str) -> Option<Problem> {
    placeholder_run(digits).map(|run| Problem::Placeholder {
        digits: digits.to_owned(),
        run,
    })
}

pub(super) fn longest_digit_run(text: &str) -> &str {
    text.split(|c: char| !c.is_ascii_digit())
        .max_by_key(|run| run.len())
        .unwrap_or_default()
}

/// Words that start a purchase order, a seal or an internal reference.
const PURCHASE_ORDER: &[&str] = &["PO", "PONO", "PURCHASEORDER"];
const SEAL: &[&str] = &["SEAL", "SL", "SEALNO"];

/// What `raw` (as typed, hyphens kept) looks like when it is something nobody tracks.
/// Only shapes that carriers' numbers never have are recognised: a leading `PO` or
/// `SEAL` word followed by digits, or words, years and counters between hyphens.
#[must_use]
pub fn untrackable(raw: &str) -> Option<Untrackable> {
    let raw = raw.trim();
    // Every shape below has a separator or starts with PO or S(EA)L: most numbers have
    // neither and are answered without allocating.
    let starts = |word: &str| {
        raw.get(..word.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(word))
    };
    if !raw.contains(['-', ' ', '#', ':', '.', '/']) && !starts("PO") {
        return None;
    }
    let upper = raw.to_ascii_uppercase();
    let parts: Vec<&str> = upper
        .split(['-', ' ', '#', ':', '.', '/'])
        .filter(|part| !part.is_empty())
        .collect();
    let (first, rest) = parts.split_first()?;
    let digits_follow =
        !rest.is_empty() && rest.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()));
    if PURCHASE_ORDER.contains(first) && digits_follow {
        return Some(Untrackable::PurchaseOrder);
    }
    if SEAL.contains(first) && digits_follow {
        return Some(Untrackable::Seal);
    }
    let glued = |word: &str, prefixes: &[&str]| {
        prefixes.iter().any(|prefix| {
            word.strip_prefix(prefix)
                .is_some_and(|tail| tail.len() >= 4 && tail.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    if parts.len() == 1 && glued(first, &["PO"]) && first.len() <= 12 {
        return Some(Untrackable::PurchaseOrder);
    }
    // Words, years and counters between hyphens (`NSE-2211-0345`, `SHA-2024-0457`): three
    // parts or more, the first a word and the rest counters, or a year among them. A
    // container written `CSQU-305438-3` never gets here (it reads as a container first),
    // and a bill typed with one hyphen (`COSU-6199589860`) has only two parts.
    if !raw.contains('-') || parts.len() < 3 {
        return None;
    }
    let is_word = |p: &str| p.bytes().all(|b| b.is_ascii_uppercase());
    let is_counter = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    let is_year =
        |p: &str| p.len() == 4 && (p.starts_with("19") || p.starts_with("20")) && is_counter(p);
    let counters = is_word(first) && rest.iter().all(|p| is_counter(p));
    let dated = parts.iter().any(|p| is_year(p)) && parts.iter().any(|p| is_word(p));
    (counters || dated).then_some(Untrackable::Reference)
}
