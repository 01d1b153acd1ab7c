//! Which positions are kept: a vessel's latest always, and of its track one point per
//! interval, for a retention. A busy feed repeats a vessel every few seconds; a track
//! point every ten minutes draws its voyage as well and costs a fraction of the rows.

use std::collections::HashMap;
use std::time::Duration;

use serde::Deserialize;

use super::{Mmsi, Position};
use crate::Timestamp;

/// How a track is thinned and how long it is kept (`[ais]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrackSettings {
    /// At most one kept point per vessel per interval.
    #[serde(with = "humantime_serde")]
    pub interval: Duration,
    /// How long kept points stay.
    #[serde(with = "humantime_serde")]
    pub retention: Duration,
}

impl Default for TrackSettings {
    fn default() -> Self {
        Self {
            interval: Duration::from_secs(600),
            retention: Duration::from_secs(90 * 86_400),
        }
    }
}

impl TrackSettings {
    /// What is wrong with the settings, if anything.
    ///
    /// # Errors
    /// An interval under a second or over a day; a retention under a day or over ten
    /// years.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=86_400).contains(&self.interval.as_secs()) {
            return Err("ais.track_interval must be between 1s and 1day".into());
        }
        if !(86_400..=3_650 * 86_400).contains(&self.retention.as_secs()) {
            return Err("ais.retention must be between 1day and 10years".into());
        }
        Ok(())
    }

    /// Before when kept points are forgotten, at `now`.
    #[must_use]
    pub fn cutoff(&self, now: Timestamp) -> Timestamp {
        now - self.retention
    }
}

/// The thinning of the tracks one reader hears: when each vessel's last kept point was.
#[derive(Debug, Default)]
pub struct Track {
    settings: TrackSettings,
    kept: HashMap<Mmsi, Timestamp>,
}

impl Track {
    /// A thinning with these settings, nothing kept yet.
    #[must_use]
    pub fn new(settings: TrackSettings) -> Self {
        Self {
            settings,
            kept: HashMap::new(),
        }
    }

    /// Whether `position` is kept as a track point: its vessel's first, or at least an
    /// interval after the last kept. A position older than the last kept one (a feed
    /// replaying) is not.
    pub fn keep(&mut self, position: &Position) -> bool {
        let interval = self.settings.interval;
        match self.kept.get(&position.mmsi) {
            Some(last) if position.at < *last + interval => false,
            _ => {
                self.kept.insert(position.mmsi, position.at);
                true
            }
        }
    }
}
