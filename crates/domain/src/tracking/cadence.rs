//! When a tracked shipment is looked at again, and when its tracking stops by itself.

use crate::lifecycle::Policy;
use crate::{ContainerStatus, StopReason, Timestamp, Tracked};

/// Whether tracking should stop by itself, and why: every container returned empty, long
/// past arrival, or long without news from the carrier.
#[must_use]
pub fn auto_stop(tracked: &Tracked, now: Timestamp, policy: &Policy) -> Option<StopReason> {
    let containers = &tracked.containers;
    if !containers.is_empty()
        && containers
            .iter()
            .all(|c| c.current_status == ContainerStatus::EmptyReturned)
    {
        return Some(StopReason::AllContainersTerminated);
    }
    if let Some(arrived) = tracked.shipment.route.pod_ata_at
        && now >= (arrived + policy.stop_after_arrival)
    {
        return Some(StopReason::PastArrivalWindow);
    }
    if now >= tracked.shipment.last_changed_at + policy.stop_without_updates {
        return Some(StopReason::NoUpdatesAtLine);
    }
    None
}

/// When to refresh next: often near arrival and while containers wait at the terminal,
/// rarely at sea, in between otherwise.
#[must_use]
pub fn next_refresh(tracked: &Tracked, now: Timestamp, policy: &Policy) -> Timestamp {
    let statuses: Vec<ContainerStatus> = tracked
        .containers
        .iter()
        .map(|c| c.current_status)
        .collect();
    let at_terminal = statuses.iter().any(|status| status.at_pod_terminal());
    let route = &tracked.shipment.route;
    let arriving = route.pod_ata_at.is_none()
        && route
            .pod_eta_at
            .is_some_and(|eta| eta <= (now + policy.near_window));
    let at_sea = statuses.contains(&ContainerStatus::OnShip);
    let wait = if at_terminal || arriving {
        policy.refresh_near
    } else if at_sea {
        policy.refresh_at_sea
    } else {
        policy.refresh
    };
    now + wait
}
