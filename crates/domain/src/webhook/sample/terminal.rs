//! The samples of the terminal's events: the sample container, discharged at Los Angeles,
//! checked twice at its terminal through the same `decide` as a real check: first held by
//! customs with its last free days set, then released, available, with an appointment, at
//! another terminal.

use super::{at, hours, later};
use crate::events::DomainEvent;
use crate::lifecycle::Policy;
use crate::terminal::{
    Amount, Currency, DataSource, Fee, FeeType, Hold, HoldName, HoldStatus, LastFreeDays,
    PodTerminal, TerminalEvent, TerminalView,
};
use crate::tracking::{Cause, TerminalAnswer, decide};
use crate::{Timestamp, Tracked, TrackingRequest};

fn held(now: Timestamp) -> TerminalView {
    TerminalView {
        availability_known: true,
        available_for_pickup: Some(false),
        holds: vec![Hold {
            name: HoldName::Customs,
            status: HoldStatus::Hold,
            description: Some("Selected for exam".to_owned()),
        }],
        fees: Amount::parse("212.50")
            .zip(Currency::parse("USD"))
            .map(|(amount, currency)| Fee {
                kind: FeeType::Exam,
                amount,
                currency,
            })
            .into_iter()
            .collect(),
        last_free_days: LastFreeDays {
            line: Some(later(now, hours(72))),
            terminal: Some(later(now, hours(96))),
            rail: Some(later(now, hours(144))),
        },
        pickup_appointment_at: None,
        location: Some("Row 12 Bay 4 Tier 2".to_owned()),
        pod_terminal: Some(PodTerminal {
            code: "TSTLA1".to_owned(),
            source: DataSource::ShippingLine,
        }),
        pickup_facility: None,
        line: crate::terminal::LineNotice::default(),
        line_events: crate::terminal::LineEvents::default(),
    }
}

fn released(now: Timestamp) -> TerminalView {
    TerminalView {
        available_for_pickup: Some(true),
        holds: Vec::new(),
        fees: Vec::new(),
        pickup_appointment_at: Some(later(now, hours(26))),
        pod_terminal: Some(PodTerminal {
            code: "TSTLA2".to_owned(),
            source: DataSource::Terminal,
        }),
        ..held(now)
    }
}

/// The event of `wanted`'s name among the two checks of `tracked`'s containers, the
/// request and the shipment as that check left them.
pub(super) fn checked(
    request: &TrackingRequest,
    tracked: &Tracked,
    wanted: TerminalEvent,
    now: Timestamp,
) -> Option<(TrackingRequest, DomainEvent, Tracked)> {
    let policy = Policy::default();
    let mut request = request.clone();
    let mut tracked = tracked.clone();
    for (view, when) in [(held(now), at(now, hours(1))), (released(now), now)] {
        let answer = TerminalAnswer::terminal(
            tracked
                .containers
                .iter()
                .map(|container| (container.id, view.clone()))
                .collect(),
        );
        let change = decide(
            &request,
            Some(&tracked),
            Cause::Terminal(&answer),
            when,
            &policy,
        )
        .ok()?;
        tracked = change.delta.onto(Some(&tracked), &tracked.shipment);
        request = change.request;
        let found = change
            .events
            .into_iter()
            .find(|event| event.name.name() == wanted.name());
        if let Some(event) = found {
            return Some((request, event, tracked));
        }
    }
    None
}
