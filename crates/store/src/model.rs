//! Query parameters and results shared by both backends.

use tidemark_domain::terminal::HoldName;
use tidemark_domain::{ContainerStatus, PartyId, RequestStatus, RequestType, Scac, Timestamp};

/// A closed interval of time; either end may be open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimeRange {
    /// Inclusive lower bound.
    pub start: Option<Timestamp>,
    /// Inclusive upper bound.
    pub end: Option<Timestamp>,
}

/// Filters of `GET /v2/tracking_requests`; empty lists match everything, several
/// values in one list match any of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrackingRequestFilter {
    /// Any of these statuses.
    pub status: Vec<RequestStatus>,
    /// Any of these SCACs.
    pub scac: Vec<Scac>,
    /// Any of these request types.
    pub request_type: Vec<RequestType>,
    /// Any of these matching forms of a request number (`request_number::matching_forms`).
    pub request_number: Vec<String>,
    /// Free text (`q`): part of the request number, of a reference number, or of the
    /// number of a container of its shipment.
    pub search: Option<String>,
    /// Created within.
    pub created_at: TimeRange,
    /// Updated within.
    pub updated_at: TimeRange,
}

/// Which page of a list, counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// Page number, from 1.
    pub number: u32,
    /// Items per page.
    pub size: u32,
    /// Whether the whole list is counted for [`Page::total`]. Counting reads every row the
    /// filter keeps, so a reader that shows no total (a search, the tracker) skips it.
    pub counted: bool,
}

impl PageRequest {
    /// Page `number` of `size` items, the whole list counted.
    #[must_use]
    pub const fn new(number: u32, size: u32) -> Self {
        Self {
            number,
            size,
            counted: true,
        }
    }

    /// The first `size` items, the list not counted.
    #[must_use]
    pub const fn first_rows(size: u32) -> Self {
        Self {
            number: 1,
            size,
            counted: false,
        }
    }

    /// Rows to skip.
    #[must_use]
    pub fn offset(&self) -> i64 {
        i64::from(self.number.saturating_sub(1)) * i64::from(self.size)
    }

    /// Rows to return.
    #[must_use]
    pub fn limit(&self) -> i64 {
        i64::from(self.size)
    }
}

/// One page of a list and the size of the whole list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    /// The items on this page.
    pub items: Vec<T>,
    /// Items in the whole list when the request was [`counted`](PageRequest::counted);
    /// otherwise the items on this page (a lower bound).
    pub total: u64,
}

/// How a commit ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitOutcome {
    /// Everything was written.
    Committed,
    /// The job's lease was lost (another worker holds it): nothing was written.
    LeaseLost,
    /// The request changed since it was read: nothing was written; look again.
    Conflict,
}

/// Filters of `GET /v2/shipments`; empty lists match everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShipmentFilter {
    /// The tracked number (bill of lading or booking): any of its matching forms.
    pub number: Vec<String>,
    /// Free text (`q`): part of the tracked number, a reference number or a container number.
    pub search: Option<String>,
    /// Stopped (true) or still tracked (false).
    pub tracking_stopped: Option<bool>,
    /// Any of these carriers.
    pub scac: Vec<Scac>,
    /// Any of these ports of loading.
    pub pol_locode: Vec<String>,
    /// Any of these ports of discharge.
    pub pod_locode: Vec<String>,
    /// Updated within.
    pub updated_at: TimeRange,
    /// Created within (an export reads what existed when it began).
    pub created_at: TimeRange,
    /// Its tracking request is for any of these customers.
    pub customer_id: Vec<PartyId>,
    /// Arrives or arrived at its port of discharge within (the actual arrival, else the
    /// estimate).
    pub arrival: TimeRange,
    /// The order of the list (not a filter).
    pub order: ShipmentOrder,
}

impl ShipmentFilter {
    /// Whether it keeps every shipment of the account (its order aside).
    #[must_use]
    pub fn is_whole_account(&self) -> bool {
        *self
            == Self {
                order: self.order,
                ..Self::default()
            }
    }
}

/// The orders a shipments list can be read in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ShipmentOrder {
    /// Newest first (the API's order).
    #[default]
    Newest,
    /// By bill of lading or booking number.
    Number,
    /// By line, then newest first.
    Line,
    /// By port of discharge, then newest first.
    Destination,
}

/// Filters of `GET /v2/containers`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerFilter {
    /// This container number: any of its matching forms.
    pub number: Vec<String>,
    /// Any of these statuses.
    pub current_status: Vec<ContainerStatus>,
    /// Available for pickup as the source says (or known not to be).
    pub available_for_pickup: Option<bool>,
    /// A hold blocks the pickup (or none does).
    pub has_holds: Option<bool>,
    /// The last free day that counts falls within.
    pub pickup_lfd: TimeRange,
    /// Updated within.
    pub updated_at: TimeRange,
    /// Created within (an export reads what existed when it began).
    pub created_at: TimeRange,
    /// Its shipment's tracking request is for any of these customers.
    pub customer_id: Vec<PartyId>,
    /// … or for a customer of any of these names (exact).
    pub customer_name: Vec<String>,
    /// Free text: part of the container number or of a reference number.
    pub search: Option<String>,
    /// Its shipment is with any of these carriers.
    pub scac: Vec<Scac>,
    /// Its shipment loads at any of these ports.
    pub pol_locode: Vec<String>,
    /// Its shipment discharges at any of these ports.
    pub pod_locode: Vec<String>,
    /// Its terminal of discharge is any of these (codes as the domain reads them).
    pub terminal_code: Vec<String>,
    /// A hold of any of these names blocks its pickup.
    pub hold_name: Vec<HoldName>,
    /// Its last free day, as a date at its port of discharge, is before this one.
    pub pickup_lfd_before: Option<time::Date>,
    /// The order of the list (not a filter).
    pub order: ContainerOrder,
}

impl ContainerFilter {
    /// Whether it keeps every container of the account (its order aside).
    #[must_use]
    pub fn is_whole_account(&self) -> bool {
        *self
            == Self {
                order: self.order,
                ..Self::default()
            }
    }
}

/// The orders a containers list can be read in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ContainerOrder {
    /// Newest first (the API's order).
    #[default]
    Newest,
    /// By number.
    Number,
    /// Soonest last free day first; those without one last.
    LastFreeDay,
    /// By status, then newest first.
    Status,
}

/// How many of a filtered containers list stand one way: the counts a list shows beside
/// its status, availability and hold choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerTally {
    /// Their status.
    pub status: ContainerStatus,
    /// Available for pickup (none: not known).
    pub available: Option<bool>,
    /// A hold blocks them.
    pub on_hold: bool,
    /// The names of the holds that block them.
    pub holds: Vec<HoldName>,
    /// How many.
    pub count: u64,
}

/// How many of a filtered shipments list are with one line and tracked or stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShipmentTally {
    /// The line.
    pub scac: Scac,
    /// Tracking has stopped.
    pub stopped: bool,
    /// How many.
    pub count: u64,
}
