//! Sample events for `POST /v2/webhooks/{id}/test`: a made-up voyage run through the same
//! lifecycle and snapshot diffing as real tracking, so a sample has exactly the shape, the
//! subject and the related records a real event of its name would have.
//!
//! The voyage: bill of lading `TESTSAMPLE0001` (SCAC `TEST`), container `TSTU1000019`,
//! Rotterdam → Algeciras (transshipment) → Los Angeles, then by rail to Chicago. A sample of
//! a milestone shows the container as it stands right after that milestone; the other
//! samples show it gated in at Rotterdam, waiting to sail, when estimates can still change;
//! the terminal's show it discharged at Los Angeles ([`terminal`]).

mod terminal;

use std::time::Duration;

use crate::events::{DomainEvent, EventName};
use crate::lifecycle::{Observation, Policy, RequestEvent, transition};
use crate::tracking::{Cause, Context, Prediction, apply_snapshot, decide};
use crate::{
    AccountId, CallView, ContainerView, FailedReason, Milestone, MilestoneEvent,
    NewTrackingRequest, Place, RequestNumber, RequestType, Scac, Snapshot, Timestamp, Tracked,
    TrackingRequest, TrackingSource, TransportEventKind, VesselRef,
};

/// A sample event and the records it concerns.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The tracking request, as it stands after the event.
    pub request: TrackingRequest,
    /// Its shipment, once there is one.
    pub tracked: Option<Tracked>,
    /// The event.
    pub event: DomainEvent,
}

/// The sample bill of lading.
pub const SAMPLE_NUMBER: &str = "TESTSAMPLE0001";

fn hours(n: u64) -> Duration {
    Duration::from_secs(n * 3600)
}

fn at(now: Timestamp, ago: Duration) -> Timestamp {
    Timestamp::from_datetime(now.as_datetime() - ago)
}

fn later(now: Timestamp, by: Duration) -> Timestamp {
    Timestamp::from_datetime(now.as_datetime() + by)
}

fn place(locode: &str, name: &str, facility: Option<&str>) -> Place {
    Place {
        locode: locode.to_owned(),
        name: Some(name.to_owned()),
        facility: facility.map(str::to_owned),
    }
}

fn vessel() -> VesselRef {
    VesselRef {
        imo: "9778791".to_owned(),
        name: Some("TIDEMARK SAMPLE".to_owned()),
    }
}

/// Where and on what each milestone happens.
fn milestone_place(milestone: Milestone) -> (Place, bool) {
    let rotterdam = || place("NLRTM", "Rotterdam", Some("ECT Delta Terminal"));
    let algeciras = || place("ESALG", "Algeciras", Some("APM Terminals Algeciras"));
    let los_angeles = || place("USLAX", "Los Angeles", Some("APM Terminals Pier 400"));
    let chicago = || place("USCHI", "Chicago", Some("BNSF Logistics Park Chicago"));
    match milestone {
        Milestone::EmptyOut | Milestone::FullIn => (rotterdam(), false),
        Milestone::FeederLoaded
        | Milestone::FeederDeparted
        | Milestone::FeederArrived
        | Milestone::FeederDischarged => (rotterdam(), true),
        Milestone::VesselLoaded | Milestone::VesselDeparted => (rotterdam(), true),
        Milestone::TransshipmentArrived
        | Milestone::TransshipmentDischarged
        | Milestone::TransshipmentLoaded
        | Milestone::TransshipmentDeparted => (algeciras(), true),
        Milestone::VesselArrived | Milestone::VesselDischarged => (los_angeles(), true),
        Milestone::RailLoaded | Milestone::RailDeparted => (los_angeles(), false),
        Milestone::RailArrived | Milestone::RailUnloaded | Milestone::FullOut => (chicago(), false),
        Milestone::EmptyIn => (place("USCHI", "Chicago", None), false),
    }
}

/// The carrier's answer once `reached` milestones happened (a day apart, the last an hour
/// ago), with estimates shifted by `shift`, `seal` on the first container and, when
/// `second`, a second container.
fn snapshot(
    now: Timestamp,
    reached: &[Milestone],
    shift: Duration,
    seal: &str,
    second: bool,
) -> Snapshot {
    let count = u64::try_from(reached.len()).unwrap_or(0);
    let milestones = reached
        .iter()
        .zip(0u64..)
        .map(|(milestone, n)| {
            let (place, on_vessel) = milestone_place(*milestone);
            MilestoneEvent {
                milestone: *milestone,
                at: at(now, hours(24 * (count - n - 1) + 1)),
                place: Some(place),
                vessel: on_vessel.then(vessel),
                voyage: on_vessel.then(|| "SMP001W".to_owned()),
                source_id: None,
            }
        })
        .collect();
    let departed = reached.contains(&Milestone::VesselDeparted);
    let arrived = reached.contains(&Milestone::VesselArrived);
    let etd = later(now, hours(48) + shift);
    let eta = later(now, hours(24 * 20) + shift);
    let call = |id: &str, place: Place, eta, etd| CallView {
        id: id.to_owned(),
        place,
        vessel: Some(vessel()),
        voyage: Some("SMP001W".to_owned()),
        original_eta: None,
        eta,
        ata: None,
        etd,
        atd: None,
    };
    let mut pol = call("pol", milestone_place(Milestone::FullIn).0, None, Some(etd));
    pol.atd = departed.then(|| at(now, hours(1)));
    let mut pod = call(
        "pod",
        milestone_place(Milestone::VesselArrived).0,
        Some(eta),
        None,
    );
    pod.ata = arrived.then(|| at(now, hours(1)));
    let mut containers = vec![ContainerView {
        number: "TSTU1000019".to_owned(),
        iso_code: Some("45G1".to_owned()),
        seal: Some(seal.to_owned()),
        milestones,
        raw_events: Vec::new(),
    }];
    if second {
        containers.push(ContainerView {
            number: "TSTU1000024".to_owned(),
            iso_code: Some("22G1".to_owned()),
            seal: Some("SL-200".to_owned()),
            milestones: Vec::new(),
            raw_events: Vec::new(),
        });
    }
    Snapshot {
        bill_of_lading: Some(SAMPLE_NUMBER.to_owned()),
        booking: None,
        calls: vec![pol, pod],
        containers,
        shipment_events: Vec::new(),
    }
}

/// A new request for the sample number, opened ten days before `now`.
fn pending(account: AccountId, now: Timestamp) -> Option<TrackingRequest> {
    let new = NewTrackingRequest {
        request_type: RequestType::BillOfLading,
        request_number: RequestNumber::parse(SAMPLE_NUMBER, 64).ok()?,
        scac: Some(Scac::parse("TEST").ok()?),
        auto_detect_scac: false,
        ref_numbers: vec!["PO-SAMPLE-1".to_owned()],
        shipment_tags: Vec::new(),
        customer: None,
    };
    Some(TrackingRequest::open(account, new, at(now, hours(240))))
}

/// The request after `observation`, and the event it emitted.
fn observe(
    request: &TrackingRequest,
    observation: Observation,
    shipment: Option<&Tracked>,
    now: Timestamp,
) -> Option<(TrackingRequest, DomainEvent)> {
    let mut moved = transition(request, observation, now, &Policy::default()).ok()?;
    if let Some(tracked) = shipment {
        moved.request.tracked_object = Some(tracked.shipment.id.as_uuid());
    }
    let name = *moved.events.first()?;
    let event = DomainEvent::for_request(
        request.account_id,
        request.id,
        shipment.map(|t| t.shipment.id),
        name,
        now,
    );
    Some((moved.request, event))
}

/// The milestones the sample shipment of event `name` has reached.
fn reached(name: EventName) -> Vec<Milestone> {
    match name {
        EventName::Transport(TransportEventKind::Actual(milestone)) => Milestone::ALL
            .into_iter()
            .take_while(|m| *m != milestone)
            .chain([milestone])
            .collect(),
        // At sea.
        EventName::ShipmentPredictedArrivalDiverged => Milestone::ALL
            .into_iter()
            .take_while(|m| *m != Milestone::VesselDeparted)
            .chain([Milestone::VesselDeparted])
            .collect(),
        // At the terminal of discharge.
        EventName::Terminal(_) => Milestone::ALL
            .into_iter()
            .take_while(|m| *m != Milestone::RailLoaded)
            .collect(),
        _ => vec![Milestone::EmptyOut, Milestone::FullIn],
    }
}

/// Tidemark's estimate thirty hours after the carrier's, decided for `created`, tracked as
/// `tracked`: the divergence, and the request and records after it.
fn diverged(
    created: &TrackingRequest,
    tracked: &Tracked,
    now: Timestamp,
) -> Option<(TrackingRequest, DomainEvent, Tracked)> {
    let prediction = Prediction {
        arrival: Some(tracked.shipment.route.pod_eta_at? + hours(30)),
    };
    let cause = Cause::Predicted(prediction);
    let change = decide(created, Some(tracked), cause, now, &Policy::default()).ok()?;
    let after = change.delta.onto(Some(tracked), change.shipment.as_ref()?);
    let event = change
        .events
        .into_iter()
        .find(|e| e.name == EventName::ShipmentPredictedArrivalDiverged)?;
    Some((change.request, event, after))
}

/// A sample of the event `name` for `account`, as if it happened at `now`; `None` for an
/// event Tidemark does not record.
#[must_use]
pub fn sample(name: EventName, account: AccountId, now: Timestamp) -> Option<Sample> {
    let request = pending(account, now)?;
    let reached = reached(name);
    match name {
        EventName::Request(RequestEvent::AwaitingManifest) => {
            let (request, event) = observe(&request, Observation::NotYetKnown, None, now)?;
            return Some(Sample {
                request,
                tracked: None,
                event,
            });
        }
        EventName::Request(RequestEvent::Failed) => {
            let observation = Observation::Permanent(FailedReason::InvalidNumber);
            let (request, event) = observe(&request, observation, None, now)?;
            return Some(Sample {
                request,
                tracked: None,
                event,
            });
        }
        _ => {}
    }

    // Found: the first answer, then (for the events only a change can cause) a second.
    let scac = Scac::parse("TEST").ok()?;
    let context = |request| Context {
        request,
        scac,
        source: TrackingSource::Sandbox,
        now,
    };
    let first = apply_snapshot(
        None,
        &snapshot(now, &reached, Duration::ZERO, "SL-100", false),
        &context(&request),
    );
    let tracked = first.tracked(None);
    let (created, succeeded) = observe(&request, Observation::Found, Some(&tracked), now)?;
    let (request, event, tracked) = match name {
        EventName::Request(RequestEvent::Succeeded) => (created, succeeded, tracked),
        EventName::Request(RequestEvent::TrackingStopped) => {
            let (stopped, event) = observe(&created, Observation::Stopped, Some(&tracked), now)?;
            (stopped, event, tracked)
        }
        EventName::Transport(TransportEventKind::Actual(_)) => {
            let event = first.events.into_iter().find(|e| e.name == name)?;
            (created, event, tracked)
        }
        EventName::Terminal(event) => terminal::checked(&created, &tracked, event, now)?,
        EventName::ShipmentPredictedArrivalDiverged => diverged(&created, &tracked, now)?,
        _ => {
            let second = apply_snapshot(
                Some(&tracked),
                &snapshot(now, &reached, hours(30), "SL-101", true),
                &context(&created),
            );
            let after = second.tracked(Some(&tracked));
            let event = second.events.into_iter().find(|e| e.name == name)?;
            (created, event, after)
        }
    };
    Some(Sample {
        request,
        tracked: Some(tracked),
        event,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Subject;

    fn now() -> Timestamp {
        Timestamp::from_datetime(time::macros::datetime!(2026-11-23 12:00 UTC))
    }

    #[test]
    fn every_recorded_event_has_a_sample_of_its_own_name() {
        let account = AccountId::new();
        for (name, _) in EventName::catalog() {
            let sample =
                sample(name, account, now()).unwrap_or_else(|| panic!("a sample of {name}"));
            assert_eq!(sample.event.name.name(), name.name());
            assert_eq!(sample.event.account_id, account);
            assert_eq!(sample.request.account_id, account);
            let subject_exists = match sample.event.subject {
                Subject::TrackingRequest(id) => id == sample.request.id,
                Subject::Shipment(id) => {
                    sample.tracked.as_ref().is_some_and(|t| t.shipment.id == id)
                }
                Subject::Container(id) => sample
                    .tracked
                    .as_ref()
                    .is_some_and(|t| t.containers.iter().any(|c| c.id == id)),
                Subject::TransportEvent(id) => sample
                    .tracked
                    .as_ref()
                    .is_some_and(|t| t.events.iter().any(|e| e.id == id)),
            };
            assert!(subject_exists, "{name}: its subject is among its records");
        }
    }

    #[test]
    fn samples_stand_where_their_event_leaves_them() {
        let account = AccountId::new();
        let status = |name| {
            sample(name, account, now())
                .map(|s| s.request.status.as_str())
                .unwrap_or_default()
        };
        assert_eq!(status(EventName::Request(RequestEvent::Failed)), "failed");
        assert_eq!(
            status(EventName::Request(RequestEvent::AwaitingManifest)),
            "awaiting_manifest"
        );
        assert_eq!(
            status(EventName::Request(RequestEvent::Succeeded)),
            "created"
        );
        assert_eq!(
            status(EventName::Request(RequestEvent::TrackingStopped)),
            "tracking_stopped"
        );
        let departed = sample(
            EventName::Transport(TransportEventKind::Actual(Milestone::VesselDeparted)),
            account,
            now(),
        )
        .and_then(|s| s.tracked)
        .map(|t| t.containers[0].current_status.as_str());
        assert_eq!(departed, Some("on_ship"));
        let updated = sample(EventName::ContainerUpdated, account, now()).map(|s| s.event.detail);
        assert_eq!(
            updated.map(|d| d.changeset.get("seal_number").cloned()),
            Some(Some([
                serde_json::json!("SL-100"),
                serde_json::json!("SL-101")
            ]))
        );
        let failed = sample(EventName::Request(RequestEvent::Failed), account, now());
        assert!(failed.is_some_and(|s| s.tracked.is_none()));
    }
}
