//! Vessels as an AIS feed tells of them: who a vessel is (its MMSI, and from its static
//! data its IMO number and name), where it was (a [`Position`]), and which positions are
//! kept ([`Track`]: the latest always, the track thinned and kept for a retention).

pub mod forecast;
mod position;
mod track;
pub mod voyage;

pub use position::{Heard, HeardVessel, Position, StaticData};
pub use track::{Track, TrackSettings};

use std::fmt;

/// A Maritime Mobile Service Identity: nine digits, the identity a vessel's AIS
/// transponder sends with every message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mmsi(u32);

impl Mmsi {
    /// The MMSI of a transponder's number; `None` for 0 or more than nine digits.
    #[must_use]
    pub const fn new(number: u32) -> Option<Self> {
        if number == 0 || number > 999_999_999 {
            None
        } else {
            Some(Self(number))
        }
    }

    /// The number.
    #[must_use]
    pub const fn get(self) -> u32 {
        self.0
    }

    /// Whether the identity is a ship's own (its first digit, the maritime identification
    /// digits, 2 to 7), not a base station, an aid to navigation or a search and rescue
    /// aircraft.
    #[must_use]
    pub const fn is_ship(self) -> bool {
        matches!(self.0 / 100_000_000, 2..=7)
    }
}

impl fmt::Display for Mmsi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:09}", self.0)
    }
}

impl std::str::FromStr for Mmsi {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.len() != 9 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("MMSI {text:?} is not nine digits"));
        }
        text.parse::<u32>()
            .ok()
            .and_then(Self::new)
            .ok_or_else(|| format!("MMSI {text:?} is not a vessel's identity"))
    }
}

#[cfg(test)]
mod tests;
