//! `[ais]`: the AIS feeds this process reads (its `ais` role), and how their positions are
//! kept.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tidemark_carriers::ais::AisSource;
use tidemark_domain::vessel::TrackSettings;
use tidemark_workers::AisSettings;

/// The AIS feeds and their tracks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AisConfig {
    /// The feeds, separated by commas: `tcp://host:port` is connected to (and reconnected
    /// with backoff), `udp://host:port` listened on. Empty: no feed.
    pub sources: String,
    /// At most one kept track point per vessel per interval.
    #[serde(with = "humantime_serde")]
    pub track_interval: Duration,
    /// How long track points are kept.
    #[serde(with = "humantime_serde")]
    pub retention: Duration,
    /// How often what the feeds said is written.
    #[serde(with = "humantime_serde")]
    pub flush: Duration,
    /// The longest wait before a dropped TCP feed is tried again (the first is a second,
    /// doubling).
    #[serde(with = "humantime_serde")]
    pub reconnect_max: Duration,
}

impl Default for AisConfig {
    fn default() -> Self {
        let track = TrackSettings::default();
        Self {
            sources: String::new(),
            track_interval: track.interval,
            retention: track.retention,
            flush: Duration::from_secs(1),
            reconnect_max: Duration::from_secs(60),
        }
    }
}

impl AisConfig {
    /// The reader's settings, checked.
    ///
    /// # Errors
    /// A source that is not `tcp://` or `udp://` with a host and port, or a setting out of
    /// its range, named.
    pub fn settings(&self) -> Result<AisSettings, String> {
        let sources = self
            .sources
            .split(',')
            .map(str::trim)
            .filter(|source| !source.is_empty())
            .map(str::parse::<AisSource>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| format!("ais.sources: {error}"))?;
        let track = TrackSettings {
            interval: self.track_interval,
            retention: self.retention,
        };
        track.check()?;
        if !(Duration::from_millis(10)..=Duration::from_secs(60)).contains(&self.flush) {
            return Err("ais.flush must be between 10ms and 60s".into());
        }
        let first = Duration::from_secs(1).min(self.reconnect_max);
        Ok(AisSettings {
            sources,
            track,
            flush: self.flush,
            backoff: (first, self.reconnect_max.max(Duration::from_millis(10))),
        })
    }
}
