//! When a tracked shipment is looked at again, and when its tracking stops by itself.

use std::time::Duration;

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
/// rarely at sea, in between otherwise; only as a safety net while the carrier pushes.
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
    let wait = if tracked.shipment.carrier_push.is_some() {
        policy.refresh_pushed
    } else if at_terminal || arriving {
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
        || container.current_status.gone()
        || container.current_status == ContainerStatus::OnRail;
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

/// When to check `tracked`'s containers at their terminal after a check: at the
/// near-arrival cadence while any is at that stage (at the usual refresh cadence, a safety
/// net, while the terminals push for every one of them), else when the vessel's estimate
/// enters the near-arrival window; never once every container has left full or none will
/// arrive.
#[must_use]
pub fn next_terminal_check(
    tracked: &Tracked,
    now: Timestamp,
    policy: &Policy,
) -> Option<Timestamp> {
    let pushed = |id: &ContainerId| {
        tracked.containers.iter().any(|c| {
            c.id == *id
                && c.terminal_subscribed_until
                    .is_some_and(|until| until > now + policy.refresh)
        })
    };
    let staged = terminal_checks(tracked, now, policy);
    let wait = if !staged.is_empty() && staged.iter().all(pushed) {
        policy.refresh
    } else {
        policy.refresh_near
    };
    check_at(tracked, now, policy, now + wait)
}

/// The containers of `tracked` to subscribe to at their terminal now: those checked whose
/// subscription is missing or ends within two refreshes.
#[must_use]
pub fn terminal_subscriptions(
    tracked: &Tracked,
    now: Timestamp,
    policy: &Policy,
) -> Vec<ContainerId> {
    let renew_by = now + policy.refresh + policy.refresh;
    terminal_checks(tracked, now, policy)
        .into_iter()
        .filter(|id| {
            tracked.containers.iter().any(|c| {
                c.id == *id
                    && c.terminal_subscribed_until
                        .is_none_or(|until| until <= renew_by)
            })
        })
        .collect()
}

/// When a lookup of `tracked` wants its containers first checked at their terminal: at
/// once when any is at that stage, else when the near-arrival window opens. A check
/// already scheduled keeps its time (the checks keep their own cadence).
#[must_use]
pub fn first_terminal_check(
    tracked: &Tracked,
    now: Timestamp,
    policy: &Policy,
) -> Option<Timestamp> {
    check_at(tracked, now, policy, now)
}

/// `staged` when a container of `tracked` is at the terminal stage; else when the vessel's
/// estimate enters the near-arrival window, if it is still ahead and a container has yet
/// to leave full.
fn check_at(
    tracked: &Tracked,
    now: Timestamp,
    policy: &Policy,
    staged: Timestamp,
) -> Option<Timestamp> {
    if !terminal_checks(tracked, now, policy).is_empty() {
        return Some(staged);
    }
    let waiting = tracked
        .containers
        .iter()
        .any(|container| container.details.pod_full_out_at.is_none());
    tracked
        .shipment
        .route
        .pod_eta_at
        .map(|eta| eta - policy.near_window)
        .filter(|opens| *opens > now && waiting)
}

/// When to check again after the terminals gave no answer: at the near-arrival cadence,
/// or later when a terminal asked for it (`Retry-After`); a terminal that refuses us
/// access, at the usual refresh cadence, until its operator grants it.
#[must_use]
pub fn terminal_retry(
    now: Timestamp,
    retry_after: Option<Duration>,
    refused: bool,
    policy: &Policy,
) -> Timestamp {
    let wait = if refused {
        policy.refresh
    } else {
        retry_after.map_or(policy.refresh_near, |asked| asked.max(policy.refresh_near))
    };
    now + wait
}
