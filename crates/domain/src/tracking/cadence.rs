//! When a tracked shipment is looked at again, and when its tracking stops by itself.

use crate::lifecycle::Policy;
use crate::{Container, ContainerId, ContainerStatus, Route, StopReason, Timestamp, Tracked};

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

/// Whether `container` is checked at its terminal now: from the vessel's approach (its
/// arrival at the port of discharge, or its estimate within the near-arrival window)
/// until the container leaves full.
fn at_terminal_stage(
    container: &Container,
    route: &Route,
    now: Timestamp,
    policy: &Policy,
) -> bool {
    let left = container.details.pod_full_out_at.is_some()
        || matches!(
            container.current_status,
            ContainerStatus::PickedUp | ContainerStatus::EmptyReturned | ContainerStatus::OnRail
        );
    let arrived = route.pod_ata_at.is_some()
        || container.details.pod_arrived_at.is_some()
        || container.current_status.at_pod_terminal();
    let approaching = route
        .pod_eta_at
        .is_some_and(|eta| eta <= now + policy.near_window);
    !left && (arrived || approaching)
}

/// The containers of `tracked` to check at their terminal now.
#[must_use]
pub fn terminal_checks(tracked: &Tracked, now: Timestamp, policy: &Policy) -> Vec<ContainerId> {
    let route = &tracked.shipment.route;
    tracked
        .containers
        .iter()
        .filter(|container| at_terminal_stage(container, route, now, policy))
        .map(|container| container.id)
        .collect()
}

/// When to check `tracked`'s containers at their terminal next: at the near-arrival
/// cadence while any is at that stage, else when the vessel's estimate enters the
/// near-arrival window; never once every container has left full or none will arrive.
#[must_use]
pub fn next_terminal_check(
    tracked: &Tracked,
    now: Timestamp,
    policy: &Policy,
) -> Option<Timestamp> {
    if !terminal_checks(tracked, now, policy).is_empty() {
        return Some(now + policy.refresh_near);
    }
    let waiting = tracked
        .containers
        .iter()
        .any(|container| container.details.pod_full_out_at.is_none());
    let window_opens = tracked
        .shipment
        .route
        .pod_eta_at
        .map(|eta| eta - policy.near_window)
        .filter(|opens| *opens > now);
    window_opens.filter(|_| waiting)
}
