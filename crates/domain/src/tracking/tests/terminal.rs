//! `decide` of a terminal check: the views' changes recorded once, statuses and check
//! times written, a repeated answer silent.

use super::*;
use crate::lifecycle::Policy;
use crate::terminal::{Hold, HoldName, HoldStatus, TerminalView};
use crate::{ContainerStatus, EventName, RequestStatus, Subject};

use super::decide::tracked_request;

/// What a terminal check answering `answer` at `now` changes, by the default policy.
fn checked(
    request: &TrackingRequest,
    tracked: &Tracked,
    answer: &TerminalAnswer,
    now: Timestamp,
) -> Change {
    decide(
        request,
        Some(tracked),
        Cause::Terminal(answer),
        now,
        &Policy::default(),
    )
    .expect("a change")
}

fn held() -> TerminalView {
    TerminalView {
        availability_known: true,
        available_for_pickup: Some(false),
        holds: vec![Hold {
            name: HoldName::Freight,
            status: HoldStatus::Hold,
            description: None,
        }],
        ..TerminalView::default()
    }
}

#[test]
fn a_terminal_answer_records_its_changes_once() {
    let policy = Policy::default();
    let (request, mut tracked) = tracked_request(&policy);
    tracked.containers[0].current_status = ContainerStatus::Grounded;
    let id = tracked.containers[0].id;
    let answer = TerminalAnswer::terminal(vec![(id, held())]);
    let change = checked(&request, &tracked, &answer, at(10));
    let names: Vec<String> = change.events.iter().map(|e| e.name.name()).collect();
    assert_eq!(
        names,
        ["container.transport.not_available", "container.updated"]
    );
    let updated = &change.events[1];
    assert_eq!(updated.name, EventName::ContainerUpdated);
    assert_eq!(
        updated.detail.data_source,
        Some(crate::terminal::DataSource::Terminal)
    );
    assert_eq!(
        updated.detail.changeset["available_for_pickup"],
        [serde_json::Value::Null, serde_json::json!(false)]
    );
    assert!(
        change
            .events
            .iter()
            .all(|e| e.subject == Subject::Container(id))
    );
    let container = &change.delta.containers[0];
    assert_eq!(container.current_status, ContainerStatus::NotAvailable);
    assert_eq!(container.terminal, held());
    assert_eq!(container.terminal_checked_at, Some(at(10)));
    assert_eq!(
        change.request.updated_at,
        at(10),
        "a lookup meanwhile conflicts"
    );
    assert_eq!(change.request.status, RequestStatus::Created);

    // The same answer an hour later: checked again, nothing recorded.
    tracked.containers[0] = container.clone();
    let request = change.request.clone();
    let again = checked(&request, &tracked, &answer, at(11));
    assert!(again.events.is_empty());
    assert_eq!(again.delta.containers[0].terminal_checked_at, Some(at(11)));
    assert_eq!(
        again.request.updated_at, request.updated_at,
        "nothing changed: the request stays as it was"
    );
    assert_eq!(again.delta.containers[0].updated_at, container.updated_at);
}

#[test]
fn only_a_tracked_shipment_is_checked_at_a_terminal() {
    let policy = Policy::default();
    let (request, tracked) = tracked_request(&policy);
    let answer = TerminalAnswer::terminal(vec![(tracked.containers[0].id, held())]);
    let pending = TrackingRequest {
        status: RequestStatus::Pending,
        ..request.clone()
    };
    let change = checked(&pending, &tracked, &answer, at(10));
    assert!(change.is_none());
    let stranger = TerminalAnswer::terminal(vec![(ContainerId::new(), held())]);
    let change = checked(&request, &tracked, &stranger, at(10));
    assert!(change.events.is_empty() && change.delta.containers.is_empty());
}

#[test]
fn terminals_are_checked_from_the_approach_until_full_out() {
    use crate::tracking::{first_terminal_check, next_terminal_check, terminal_checks};
    let policy = Policy::default();
    let hour = std::time::Duration::from_secs(3600);
    // The vessel is due at hour 500; the near-arrival window is 48 hours.
    let at_sea = super::tracked_with(&[ContainerStatus::OnShip], None, 0);
    assert!(terminal_checks(&at_sea, at(100), &policy).is_empty());
    assert_eq!(
        next_terminal_check(&at_sea, at(100), &policy),
        Some(at(452))
    );
    let ids: Vec<_> = at_sea.containers.iter().map(|c| c.id).collect();
    assert_eq!(terminal_checks(&at_sea, at(460), &policy), ids);
    assert_eq!(
        next_terminal_check(&at_sea, at(460), &policy),
        Some(at(460) + hour)
    );
    assert_eq!(
        first_terminal_check(&at_sea, at(460), &policy),
        Some(at(460)),
        "a lookup finding it in the window wants a check at once"
    );
    assert_eq!(
        first_terminal_check(&at_sea, at(100), &policy),
        Some(at(452))
    );
    let grounded = super::tracked_with(
        &[ContainerStatus::NotAvailable, ContainerStatus::PickedUp],
        Some(480),
        0,
    );
    assert_eq!(
        terminal_checks(&grounded, at(600), &policy),
        [grounded.containers[0].id],
        "the one still at the terminal, long after the estimate"
    );
    let mut out = grounded.clone();
    out.containers[0].details.pod_full_out_at = Some(at(590));
    out.containers[1].details.pod_full_out_at = Some(at(585));
    assert!(terminal_checks(&out, at(600), &policy).is_empty());
    assert_eq!(
        next_terminal_check(&out, at(600), &policy),
        None,
        "all gone"
    );
}

#[test]
fn a_failed_terminal_check_waits_the_cadence_or_longer_when_asked() {
    use crate::tracking::terminal_retry;
    let policy = Policy::default();
    let hour = std::time::Duration::from_secs(3600);
    let now = at(10);
    assert_eq!(terminal_retry(now, None, false, &policy), now + hour);
    assert_eq!(
        terminal_retry(now, Some(std::time::Duration::from_secs(7)), false, &policy),
        now + hour,
        "never sooner than the cadence"
    );
    assert_eq!(
        terminal_retry(now, Some(3 * hour), false, &policy),
        now + 3 * hour
    );
    assert_eq!(
        terminal_retry(now, None, true, &policy),
        now + policy.refresh,
        "refused: at the usual refresh cadence"
    );
}

#[test]
fn a_terminal_that_pushes_is_polled_as_a_safety_net_and_its_subscription_renewed() {
    use crate::tracking::{next_terminal_check, terminal_subscriptions};
    let policy = Policy::default();
    let hour = std::time::Duration::from_secs(3600);
    let mut tracked =
        super::tracked_with(&[ContainerStatus::OnShip, ContainerStatus::OnShip], None, 0);
    let now = at(460);
    let ids: Vec<_> = tracked.containers.iter().map(|c| c.id).collect();
    assert_eq!(
        terminal_subscriptions(&tracked, now, &policy),
        ids,
        "none yet"
    );

    tracked.containers[0].terminal_subscribed_until = Some(now + 24 * hour);
    assert_eq!(terminal_subscriptions(&tracked, now, &policy), [ids[1]]);
    assert_eq!(
        next_terminal_check(&tracked, now, &policy),
        Some(now + hour),
        "one box is only polled: the near-arrival cadence"
    );

    tracked.containers[1].terminal_subscribed_until = Some(now + 24 * hour);
    assert!(terminal_subscriptions(&tracked, now, &policy).is_empty());
    assert_eq!(
        next_terminal_check(&tracked, now, &policy),
        Some(now + policy.refresh),
        "both pushed for: the refresh cadence, as a safety net"
    );

    // Ending within two refreshes: renewed, and polled at the near cadence meanwhile.
    tracked.containers[1].terminal_subscribed_until = Some(now + 2 * hour);
    assert_eq!(terminal_subscriptions(&tracked, now, &policy), [ids[1]]);
    assert_eq!(
        next_terminal_check(&tracked, now, &policy),
        Some(now + hour)
    );
}

#[test]
fn a_subscription_the_terminal_took_is_written_on_the_container() {
    let policy = Policy::default();
    let (request, tracked) = tracked_request(&policy);
    let id = tracked.containers[0].id;
    let until = at(900);
    let answer = TerminalAnswer {
        subscribed: vec![(id, until)],
        ..TerminalAnswer::terminal(vec![(id, held())])
    };
    let change = checked(&request, &tracked, &answer, at(10));
    let container = change
        .delta
        .containers
        .iter()
        .find(|c| c.id == id)
        .expect("written");
    assert_eq!(container.terminal_subscribed_until, Some(until));
    assert_eq!(container.terminal_checked_at, Some(at(10)));
}

#[test]
fn a_pickup_facility_the_line_places_is_learned_when_first_named() {
    use crate::terminal::{ContainerNotice, LineNotice};
    let policy = Policy::default();
    let (request, mut tracked) = tracked_request(&policy);
    let ramp = crate::Place {
        locode: "NLRTM".to_owned(),
        name: None,
        facility: Some("RTMRAMP".to_owned()),
    };
    let notice = |facility: &str, place: Option<crate::Place>| ContainerNotice {
        notice: LineNotice {
            pickup_facility: Some(facility.to_owned()),
            ..LineNotice::default()
        },
        last_free_day: None,
        pickup_place: place,
    };
    let number = tracked.containers[0].number.clone();
    let check = |tracked: &Tracked, notices: &[(String, ContainerNotice)]| {
        let answer = TerminalAnswer::of(tracked, notices, &[]);
        checked(&request, tracked, &answer, at(10))
    };

    let placed = [(number.clone(), notice("RTMRAMP", Some(ramp.clone())))];
    let change = check(&tracked, &placed);
    assert_eq!(change.delta.places, std::slice::from_ref(&ramp));
    assert_eq!(
        change.delta.containers[0]
            .terminal
            .pickup_facility
            .as_deref(),
        Some("RTMRAMP")
    );
    // Named again: known already, nothing to learn.
    tracked.containers[0].terminal = change.delta.containers[0].terminal.clone();
    assert_eq!(check(&tracked, &placed).delta.places, []);
    // A facility placed nowhere is kept, and not learned.
    let unplaced = [(number, notice("RTMDEPOT", None))];
    let change = check(&tracked, &unplaced);
    assert_eq!(
        change.delta.containers[0]
            .terminal
            .pickup_facility
            .as_deref(),
        Some("RTMDEPOT")
    );
    assert_eq!(change.delta.places, []);
}
