//! Transport milestones and estimates, and the container status they imply: every
//! `container.transport.*` event name is spelled here.

use std::fmt;

/// A transport milestone of a container, named as the API names transport events
/// (`container.transport.<name>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Milestone {
    /// Empty container picked up for stuffing.
    EmptyOut,
    /// Laden container delivered to the terminal of loading.
    FullIn,
    /// Loaded on a feeder vessel or barge.
    FeederLoaded,
    /// The feeder vessel or barge left.
    FeederDeparted,
    /// The feeder vessel or barge arrived.
    FeederArrived,
    /// Discharged from a feeder vessel or barge.
    FeederDischarged,
    /// Loaded on the vessel at the port of loading.
    VesselLoaded,
    /// The vessel left the port of loading.
    VesselDeparted,
    /// The vessel reached a transshipment port.
    TransshipmentArrived,
    /// Discharged at a transshipment port.
    TransshipmentDischarged,
    /// Loaded on the onward vessel at a transshipment port.
    TransshipmentLoaded,
    /// The onward vessel left the transshipment port.
    TransshipmentDeparted,
    /// The vessel reached the port of discharge.
    VesselArrived,
    /// Discharged at the port of discharge.
    VesselDischarged,
    /// Loaded on a train.
    RailLoaded,
    /// The train left.
    RailDeparted,
    /// The train arrived.
    RailArrived,
    /// Unloaded from the train.
    RailUnloaded,
    /// Laden container picked up at the port of discharge.
    FullOut,
    /// Empty container returned.
    EmptyIn,
}

impl Milestone {
    /// Every milestone, in the order a voyage passes them.
    pub const ALL: [Self; 20] = [
        Self::EmptyOut,
        Self::FullIn,
        Self::FeederLoaded,
        Self::FeederDeparted,
        Self::FeederArrived,
        Self::FeederDischarged,
        Self::VesselLoaded,
        Self::VesselDeparted,
        Self::TransshipmentArrived,
        Self::TransshipmentDischarged,
        Self::TransshipmentLoaded,
        Self::TransshipmentDeparted,
        Self::VesselArrived,
        Self::VesselDischarged,
        Self::RailLoaded,
        Self::RailDeparted,
        Self::RailArrived,
        Self::RailUnloaded,
        Self::FullOut,
        Self::EmptyIn,
    ];

    /// The name after `container.transport.`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::EmptyOut => "empty_out",
            Self::FullIn => "full_in",
            Self::FeederLoaded => "feeder_loaded",
            Self::FeederDeparted => "feeder_departed",
            Self::FeederArrived => "feeder_arrived",
            Self::FeederDischarged => "feeder_discharged",
            Self::VesselLoaded => "vessel_loaded",
            Self::VesselDeparted => "vessel_departed",
            Self::TransshipmentArrived => "transshipment_arrived",
            Self::TransshipmentDischarged => "transshipment_discharged",
            Self::TransshipmentLoaded => "transshipment_loaded",
            Self::TransshipmentDeparted => "transshipment_departed",
            Self::VesselArrived => "vessel_arrived",
            Self::VesselDischarged => "vessel_discharged",
            Self::RailLoaded => "rail_loaded",
            Self::RailDeparted => "rail_departed",
            Self::RailArrived => "rail_arrived",
            Self::RailUnloaded => "rail_unloaded",
            Self::FullOut => "full_out",
            Self::EmptyIn => "empty_in",
        }
    }

    /// The full event name, e.g. `container.transport.vessel_loaded`.
    #[must_use]
    pub fn event_name(self) -> String {
        format!("container.transport.{}", self.as_str())
    }
}

impl fmt::Display for Milestone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a container is, as the API's `current_status` says it: the reference's thirteen
/// values. The milestones give the voyage's part ([`ContainerStatus::after`]); at the
/// terminal of discharge the terminal's word decides it, together with availability and
/// holds (`terminal::Standing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContainerStatus {
    /// Tracked, no voyage milestone yet.
    New,
    /// Loaded on a vessel, at sea or in transshipment.
    OnShip,
    /// Discharged at the port of discharge; availability not yet known.
    Grounded,
    /// At the terminal of discharge, released for pickup (a terminal source says so).
    Available,
    /// At the terminal of discharge, not released: unavailable or held.
    NotAvailable,
    /// Discharged at the port of discharge, waiting for its rail leg. The reference's
    /// value; the milestones Tidemark reads do not yet tell it from `grounded`.
    AwaitingInlandTransfer,
    /// On a train.
    OnRail,
    /// Released for pickup at an off-dock facility rather than the terminal of discharge.
    OffDock,
    /// Picked up full.
    PickedUp,
    /// Marked delivered by a person. The reference's value; nothing marks it yet.
    Delivered,
    /// Returned empty: the end.
    EmptyReturned,
    /// In the reference's schema, undocumented there; never given.
    Loaded,
    /// In the reference's schema, undocumented there; never given.
    Dropped,
}

impl ContainerStatus {
    /// Every status, in the reference's order.
    pub const ALL: [Self; 13] = [
        Self::New,
        Self::OnShip,
        Self::Grounded,
        Self::Available,
        Self::NotAvailable,
        Self::AwaitingInlandTransfer,
        Self::OnRail,
        Self::OffDock,
        Self::PickedUp,
        Self::Delivered,
        Self::EmptyReturned,
        Self::Loaded,
        Self::Dropped,
    ];

    /// Parses the wire name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == text)
    }

    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::New => "new",
            Self::OnShip => "on_ship",
            Self::Grounded => "grounded",
            Self::Available => "available",
            Self::NotAvailable => "not_available",
            Self::AwaitingInlandTransfer => "awaiting_inland_transfer",
            Self::OnRail => "on_rail",
            Self::OffDock => "off_dock",
            Self::PickedUp => "picked_up",
            Self::Delivered => "delivered",
            Self::EmptyReturned => "empty_returned",
            Self::Loaded => "loaded",
            Self::Dropped => "dropped",
        }
    }

    /// Whether it is at the terminal of discharge (or the off-dock yard serving it): as
    /// the milestones say (`grounded`), or as the terminal shows it.
    #[must_use]
    pub const fn at_pod_terminal(self) -> bool {
        matches!(
            self,
            Self::Grounded | Self::Available | Self::NotAvailable | Self::OffDock
        )
    }

    /// Whether it has left the terminal of discharge full, for good: nothing the terminal
    /// said before can make it available or held there again.
    #[must_use]
    pub const fn gone(self) -> bool {
        matches!(self, Self::PickedUp | Self::Delivered | Self::EmptyReturned)
    }

    /// The status after `milestone`.
    #[must_use]
    pub const fn after(milestone: Milestone) -> Self {
        match milestone {
            Milestone::EmptyOut | Milestone::FullIn => Self::New,
            Milestone::FeederLoaded
            | Milestone::FeederDeparted
            | Milestone::FeederArrived
            | Milestone::FeederDischarged
            | Milestone::VesselLoaded
            | Milestone::VesselDeparted
            | Milestone::TransshipmentArrived
            | Milestone::TransshipmentDischarged
            | Milestone::TransshipmentLoaded
            | Milestone::TransshipmentDeparted
            | Milestone::VesselArrived => Self::OnShip,
            Milestone::VesselDischarged | Milestone::RailUnloaded => Self::Grounded,
            Milestone::RailLoaded | Milestone::RailDeparted | Milestone::RailArrived => {
                Self::OnRail
            }
            Milestone::FullOut => Self::PickedUp,
            Milestone::EmptyIn => Self::EmptyReturned,
        }
    }
}

/// An estimated milestone, named as the API names estimated transport events
/// (`container.transport.estimated.<name>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Estimate {
    /// The vessel's estimated departure from the port of loading.
    VesselDeparted,
    /// The vessel's estimated arrival at the port of discharge.
    VesselArrived,
}

impl Estimate {
    /// Every estimate.
    pub const ALL: [Self; 2] = [Self::VesselDeparted, Self::VesselArrived];

    /// The full event name, e.g. `container.transport.estimated.vessel_arrived`.
    #[must_use]
    pub const fn event_name(self) -> &'static str {
        match self {
            Self::VesselDeparted => "container.transport.estimated.vessel_departed",
            Self::VesselArrived => "container.transport.estimated.vessel_arrived",
        }
    }
}
