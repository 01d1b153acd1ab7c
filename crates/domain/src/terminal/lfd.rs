//! Last free days (api.md §4a): each source's own, and the one a client acts on.

use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// The last day a container may stay free of demurrage, per source
/// (`import_deadlines` on the wire).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LastFreeDays {
    /// The shipping line's (its Arrival Notice's `freeTimes[].lastFreeDate`).
    pub line: Option<Timestamp>,
    /// The terminal's.
    pub terminal: Option<Timestamp>,
    /// The rail carrier's, for containers moving inland by rail.
    pub rail: Option<Timestamp>,
}

impl LastFreeDays {
    /// `pickup_lfd`: the line's, else the terminal's, else the rail's. Not the earliest:
    /// the line's free time is what the importer's contract with the line says, and the
    /// others stand in only where the line gives none.
    #[must_use]
    pub fn pickup_lfd(&self) -> Option<Timestamp> {
        self.line.or(self.terminal).or(self.rail)
    }
}
