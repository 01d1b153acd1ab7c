//! What one terminal said of one container, and how it enters the container's view: the
//! terminal's own fields are replaced, the line's and the rail's last free days are kept.

use super::{DataSource, Fee, Hold, PodTerminal, TerminalView, fee};
use crate::Timestamp;

/// A terminal's answer for one container it knows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TerminalReport {
    /// Whether it may be picked up now; `None` when the terminal does not say.
    pub available: Option<bool>,
    /// The holds in force or pending.
    pub holds: Vec<Hold>,
    /// The fees owed.
    pub fees: Vec<Fee>,
    /// The terminal's last free day.
    pub last_free_day: Option<Timestamp>,
    /// The pickup appointment.
    pub appointment: Option<Timestamp>,
    /// Where it stands in the yard.
    pub location: Option<String>,
    /// The facility it is at, when the terminal names one.
    pub terminal: Option<String>,
    /// An off-dock facility to pick it up from.
    pub pickup_facility: Option<String>,
    /// When it left full; the terminal has nothing more to say of it after.
    pub out_gate_at: Option<Timestamp>,
}

impl TerminalView {
    /// This view after `report`: the terminal's fields as it gives them (lists
    /// normalized), the line's and the rail's last free days as they were; a terminal that
    /// names no facility leaves the terminal of discharge as it was. A box the terminal has
    /// out-gated keeps the view it had: the terminal has nothing more to say of it (it would
    /// say "not available"), and the line's full-out ends its stay.
    #[must_use]
    pub fn with_report(&self, report: &TerminalReport) -> Self {
        if report.out_gate_at.is_some() {
            return self.clone();
        }
        let pod_terminal = match &report.terminal {
            Some(code) => Some(PodTerminal {
                code: code.clone(),
                source: DataSource::Terminal,
            }),
            None => self.pod_terminal.clone(),
        };
        // The line's word on availability counts while the terminal says nothing.
        let available = report
            .available
            .or_else(|| self.line_events.available_at.map(|_| true));
        Self {
            availability_known: available.is_some(),
            available_for_pickup: available,
            holds: Self::merged_holds(report.holds.iter().cloned(), &self.line, &self.line_events),
            fees: fee::normalized(report.fees.iter().cloned()),
            last_free_days: super::LastFreeDays {
                terminal: report.last_free_day,
                ..self.last_free_days
            },
            pickup_appointment_at: report.appointment,
            location: report.location.clone(),
            pod_terminal,
            pickup_facility: report
                .pickup_facility
                .clone()
                .or_else(|| self.line.pickup_facility.clone()),
            line: self.line.clone(),
            line_events: self.line_events.clone(),
        }
    }
}
