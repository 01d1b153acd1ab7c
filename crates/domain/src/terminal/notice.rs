//! What the shipping line's Arrival Notice (DCSA AN 1.0.1) says of a container, and how it
//! enters the container's view: the line's last free day, the line's freight release and
//! the customs release it reports (each a hold while not released), where to pick the box
//! up and where to return it empty. The line's holds sit beside the terminal's: a box is
//! held while either source holds it (the sources lag each other).

use serde::{Deserialize, Serialize};

use super::{Hold, HoldName, HoldStatus, LineEvents, TerminalView, hold};
use crate::{Place, Timestamp};

/// The line's word on one container, from its latest Arrival Notice.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LineNotice {
    /// When the notice saying this was issued (`issueDateTime`): an older notice, pulled
    /// or pushed late, does not override a newer one.
    pub issued_at: Option<Timestamp>,
    /// Whether the line has released the freight (`isFreightReleased`); `None` when the
    /// notice does not say.
    pub freight_released: Option<bool>,
    /// Whether customs has cleared it, as the line reports (`isCustomsReleased`).
    pub customs_released: Option<bool>,
    /// The number a trucker presents to pick it up (`pickupNumber`).
    pub pickup_number: Option<String>,
    /// Where to pick it up (`pickupLocation`'s facility code), when the line names it.
    pub pickup_facility: Option<String>,
    /// Where to return it empty (`returnLocation`'s facility code, else its name).
    pub return_location: Option<String>,
    /// The reference to quote when returning it (`turnInReference`).
    pub return_reference: Option<String>,
}

/// What an Arrival Notice says of one container: the line's word and its last free day.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerNotice {
    /// The line's word.
    pub notice: LineNotice,
    /// The line's last free day (demurrage free time), when the notice gives one.
    pub last_free_day: Option<Timestamp>,
    /// The pickup facility as a place to learn (its UN/LOCODE and code, no name), when
    /// the notice says where the facility is: a facility learned so is a terminal
    /// `GET /v2/terminals/{id}` and `include=pickup_facility` know.
    pub pickup_place: Option<Place>,
}

const FREIGHT: &str = "Freight not released by the line (arrival notice)";
const CUSTOMS: &str = "Customs release not reported by the line (arrival notice)";

impl LineNotice {
    /// The holds the line's word stands for: a freight hold while the freight is not
    /// released, a pending customs hold while customs has not cleared it.
    #[must_use]
    pub fn holds(&self) -> Vec<Hold> {
        let mut holds = Vec::new();
        if self.freight_released == Some(false) {
            holds.push(Hold {
                name: HoldName::Freight,
                status: HoldStatus::Hold,
                description: Some(FREIGHT.to_owned()),
            });
        }
        if self.customs_released == Some(false) {
            holds.push(Hold {
                name: HoldName::Customs,
                status: HoldStatus::Pending,
                description: Some(CUSTOMS.to_owned()),
            });
        }
        holds
    }
}

/// The holds the line stands for: its notice's and its release events'. Of the two, the
/// newer speaks for customs (an event's time against the notice's issue); the notice's
/// freight hold stands either way.
fn line_holds(notice: &LineNotice, events: &LineEvents) -> Vec<Hold> {
    let events_newer = match (events.customs_at, notice.issued_at) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(event), Some(issued)) => event >= issued,
    };
    let mut holds = notice.holds();
    if events_newer {
        holds.retain(|hold| hold.name != HoldName::Customs);
        holds.extend(events.holds.iter().cloned());
    } else if notice.customs_released != Some(true) {
        holds.extend(events.holds.iter().cloned());
    }
    holds
}

impl TerminalView {
    /// The holds the terminal gave, without those standing for the line's word.
    pub(super) fn terminal_holds(&self) -> impl Iterator<Item = Hold> + '_ {
        let line = line_holds(&self.line, &self.line_events);
        self.holds
            .iter()
            .filter(move |h| !line.contains(h))
            .cloned()
    }

    /// The terminal's `holds` and the line's word (`notice`, `events`), as one normalized
    /// list.
    pub(super) fn merged_holds(
        terminal: impl IntoIterator<Item = Hold>,
        notice: &LineNotice,
        events: &LineEvents,
    ) -> Vec<Hold> {
        hold::normalized(terminal.into_iter().chain(line_holds(notice, events)))
    }

    /// This view after the line's `notice` of a container discharged at terminal
    /// `discharged_at` (unchanged when the notice is older than the one it holds): its last
    /// free day and word taken, the holds the line stood for
    /// replaced, a pickup place the line named taken (unless the terminal names another;
    /// the terminal of discharge itself is no pickup facility of its own).
    #[must_use]
    pub fn with_notice(&self, notice: &ContainerNotice, discharged_at: Option<&str>) -> Self {
        if let (Some(issued), Some(known)) = (notice.notice.issued_at, self.line.issued_at)
            && issued < known
        {
            return self.clone();
        }
        let mut line = notice.notice.clone();
        if line
            .pickup_facility
            .as_deref()
            .is_some_and(|code| Some(code) == discharged_at)
        {
            line.pickup_facility = None;
        }
        let pickup_facility = if self.pickup_facility == self.line.pickup_facility {
            line.pickup_facility.clone()
        } else {
            self.pickup_facility.clone()
        };
        Self {
            holds: Self::merged_holds(self.terminal_holds(), &line, &self.line_events),
            last_free_days: super::LastFreeDays {
                line: notice.last_free_day,
                ..self.last_free_days
            },
            pickup_facility,
            line,
            ..self.clone()
        }
    }
}
