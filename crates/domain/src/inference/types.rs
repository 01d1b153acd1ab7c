//! The vocabulary of an inference's answer: confidences, decisions, number types and the
//! kinds of format rules.

use crate::RequestType;
use crate::number_shapes::ShapeType;

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
