//! The work queue's vocabulary: what kinds of jobs there are, and a job as a worker holds
//! it. The queue itself lives in storage; leases make a crashed worker's job claimable again.

use std::fmt;

use crate::{JobId, Timestamp};

/// What a job does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JobKind {
    /// Look a tracking request up at its carrier (first lookup, retries, manifest checks).
    Lookup,
    /// Refresh a tracked shipment.
    Refresh,
    /// Check a tracked shipment's containers at their terminals of discharge.
    TerminalCheck,
    /// Read the line's Arrival Notice of a tracked shipment now: its publisher said a new
    /// one is out (an `arrival-notice-notification`).
    ArrivalNotice,
    /// Estimate a shipment's arrival from its vessel's positions (Tidemark's own
    /// `pod_predicted_eta_at`).
    PredictArrival,
}

impl JobKind {
    /// Every kind.
    pub const ALL: [Self; 5] = [
        Self::Lookup,
        Self::Refresh,
        Self::TerminalCheck,
        Self::ArrivalNotice,
        Self::PredictArrival,
    ];

    /// The stored name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Lookup => "lookup",
            Self::Refresh => "refresh",
            Self::TerminalCheck => "terminal_check",
            Self::ArrivalNotice => "arrival_notice",
            Self::PredictArrival => "predict_arrival",
        }
    }

    /// Parses a stored name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }
}

impl fmt::Display for JobKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A job to schedule. One job per kind and key exists at a time: scheduling it again keeps
/// the earlier due time, so jobs are idempotent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewJob {
    /// What to do.
    pub kind: JobKind,
    /// What to do it to (e.g. a tracking request id).
    pub key: String,
    /// When.
    pub due_at: Timestamp,
    /// Only if no job of this kind and key exists: one that does keeps its time (a
    /// terminal check backing off at a terminal's request is not pulled in by a lookup).
    pub if_absent: bool,
}

/// A job claimed by a worker, held until its lease ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedJob {
    /// Its id.
    pub id: JobId,
    /// What to do.
    pub kind: JobKind,
    /// What to do it to.
    pub key: String,
    /// When it was due.
    pub due_at: Timestamp,
    /// Claims so far, this one included.
    pub attempts: u32,
    /// Until when this worker holds it; after that another may claim it.
    pub lease_until: Timestamp,
    /// Proof of this claim: completing or rescheduling with a stale token does nothing.
    pub lease_token: uuid::Uuid,
    /// How many times the job had been scheduled when claimed: if it was scheduled again
    /// while held, completing it keeps the new schedule instead of removing it.
    pub revision: i64,
}
