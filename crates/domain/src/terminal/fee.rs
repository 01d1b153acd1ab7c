//! Fees at the terminal of discharge (api.md §4a): what the container owes before it may
//! leave, in the terminal's currency. `total` overlaps the others: never add it to them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What a fee is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FeeType {
    /// Storage past the last free day.
    Demurrage,
    /// A customs or agriculture exam.
    Exam,
    /// Dwell past the terminal's allowance.
    ExtendedDwellTime,
    /// Any other.
    Other,
    /// The sum the terminal states, overlapping the others.
    Total,
}

impl FeeType {
    /// Every type, in the order lists show them.
    pub const ALL: [Self; 5] = [
        Self::Demurrage,
        Self::Exam,
        Self::ExtendedDwellTime,
        Self::Other,
        Self::Total,
    ];

    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Demurrage => "demurrage",
            Self::Exam => "exam",
            Self::ExtendedDwellTime => "extended_dwell_time",
            Self::Other => "other",
            Self::Total => "total",
        }
    }

    /// Parses the wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }
}

/// An amount of money as the source wrote it: a non-negative decimal with at most four
/// places, kept as text so that nothing is lost to binary fractions. It is a JSON number
/// on the wire (`212.5`); a string of digits reads too.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Amount(String);

impl Amount {
    /// Reads `12`, `12.5`, `1200.75`; trailing zeros of the fraction are dropped, so equal
    /// amounts compare equal.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || whole.len() > 15 || !digits(whole) || !digits(fraction) {
            return None;
        }
        let fraction = fraction.trim_end_matches('0');
        if fraction.len() > 4 {
            return None;
        }
        let whole = whole.trim_start_matches('0');
        let whole = if whole.is_empty() { "0" } else { whole };
        Some(Self(if fraction.is_empty() {
            whole.to_owned()
        } else {
            format!("{whole}.{fraction}")
        }))
    }

    /// The decimal text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Amount {
    fn serialize<S: serde::Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        match self.0.parse::<serde_json::Number>() {
            Ok(number) => number.serialize(out),
            Err(_) => out.serialize_str(&self.0),
        }
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: serde::Deserializer<'de>>(input: D) -> Result<Self, D::Error> {
        let text = match serde_json::Value::deserialize(input)? {
            serde_json::Value::Number(number) => number.to_string(),
            serde_json::Value::String(text) => text,
            other => other.to_string(),
        };
        Self::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("{text:?} is not an amount")))
    }
}

/// An ISO 4217 currency code: three capital letters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Currency(String);

impl Currency {
    /// Reads a code in any case (`usd` is `USD`).
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        (text.len() == 3 && text.bytes().all(|b| b.is_ascii_alphabetic()))
            .then(|| Self(text.to_ascii_uppercase()))
    }

    /// The code.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Currency {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text).ok_or_else(|| format!("{text:?} is not a currency code"))
    }
}

impl From<Currency> for String {
    fn from(currency: Currency) -> Self {
        currency.0
    }
}

/// One fee.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fee {
    /// What it is for.
    #[serde(rename = "type")]
    pub kind: FeeType,
    /// How much.
    pub amount: Amount,
    /// In what currency.
    #[serde(rename = "currency_code")]
    pub currency: Currency,
}

/// A container's fees as one list: one per type (the last a source gives), in
/// [`FeeType::ALL`]'s order, so that two answers saying the same compare equal.
#[must_use]
pub fn normalized(fees: impl IntoIterator<Item = Fee>) -> Vec<Fee> {
    let mut list: Vec<Fee> = Vec::new();
    for fee in fees {
        match list.iter_mut().find(|kept| kept.kind == fee.kind) {
            Some(kept) => *kept = fee,
            None => list.push(fee),
        }
    }
    list.sort_by_key(|fee| fee.kind);
    list
}

super::by_wire_name!(FeeType, "fee type");
