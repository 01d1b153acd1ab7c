//! What a terminal check changes in a tracked shipment: each answered container's view,
//! status and check time, and the events the views' differences record (api.md §4a). An
//! answer that says what the last one said records nothing.

use super::Change;
use crate::terminal::{
    self, ContainerNotice, DataSource, TerminalCode, TerminalEvent, TerminalReport, TerminalView,
};
use crate::{
    ContainerId, DomainEvent, EventDetail, EventName, Place, Subject, Timestamp, Tracked,
    TrackingRequest,
};

/// What the terminal sources said of a shipment's containers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TerminalAnswer {
    /// The views given, per container; a container not listed was not answered for.
    pub views: Vec<(ContainerId, TerminalView)>,
    /// Who gave them: the events they record say so (`data_source`).
    pub source: DataSource,
    /// The containers a terminal answered for (`terminal_checked_at`).
    pub checked: Vec<ContainerId>,
    /// Not before this is a source that failed this time asked again (its `Retry-After`).
    pub backoff: Option<Timestamp>,
    /// The containers whose terminal took a subscription, and until when it pushes.
    pub subscribed: Vec<(ContainerId, Timestamp)>,
    /// Given outside the terminal checks' cadence (the line pushed its notice, or said a
    /// new one is out): the checks keep their schedule, and their backing off.
    pub off_cadence: bool,
    /// The pickup facilities the line's notices placed, learned once a view takes one.
    pub places: Vec<Place>,
}

impl TerminalAnswer {
    /// The views of `tracked`'s containers after the line's Arrival Notice (`notices`)
    /// and then the terminals' `reports`, by container number; a number not of this
    /// shipment is ignored. The terminal is the source when it answered, else the line.
    #[must_use]
    pub fn of<'a>(
        tracked: &Tracked,
        notices: &'a [(String, ContainerNotice)],
        reports: &'a [(String, TerminalReport)],
    ) -> Self {
        let views = tracked
            .containers
            .iter()
            .filter_map(|container| {
                let notice = notices.iter().find(|(n, _)| *n == container.number);
                let report = reports.iter().find(|(n, _)| *n == container.number);
                if notice.is_none() && report.is_none() {
                    return None;
                }
                let mut view = container.terminal.clone();
                if let Some((_, notice)) = notice {
                    let code = container.terminal_code();
                    view = view.with_notice(notice, code.as_ref().map(TerminalCode::as_str));
                }
                if let Some((_, report)) = report {
                    view = view.with_report(report);
                }
                Some((container.id, view))
            })
            .collect();
        let source = if reports.is_empty() {
            DataSource::ShippingLine
        } else {
            DataSource::Terminal
        };
        let checked = tracked
            .containers
            .iter()
            .filter(|c| reports.iter().any(|(n, _)| *n == c.number))
            .map(|c| c.id)
            .collect();
        let places = notices
            .iter()
            .filter_map(|(_, notice)| notice.pickup_place.clone())
            .collect();
        Self {
            views,
            source,
            checked,
            backoff: None,
            subscribed: Vec::new(),
            off_cadence: false,
            places,
        }
    }

    /// What a push outside the checks' cadence (the line's notices, a terminal's
    /// reports) makes of `tracked`'s containers.
    #[must_use]
    pub fn pushed(
        tracked: &Tracked,
        notices: &[(String, ContainerNotice)],
        reports: &[(String, TerminalReport)],
    ) -> Self {
        Self {
            off_cadence: true,
            ..Self::of(tracked, notices, reports)
        }
    }

    /// A terminal's `views`, every one answered for.
    #[must_use]
    pub fn terminal(views: Vec<(ContainerId, TerminalView)>) -> Self {
        Self {
            checked: views.iter().map(|(id, _)| *id).collect(),
            views,
            source: DataSource::Terminal,
            backoff: None,
            subscribed: Vec::new(),
            off_cadence: false,
            places: Vec::new(),
        }
    }
}

/// The change of `request`, tracked as `prior`, after `answer` at `now`. When a view
/// changes, the request's `updated_at` moves with it, so a lookup committed meanwhile and
/// this check never overwrite each other: the later of the two conflicts and is taken
/// again. An answer that changes nothing only records when the terminal was checked (a
/// time the store only moves forward, so a lookup committed after it keeps it).
pub(super) fn check(
    request: &TrackingRequest,
    prior: &Tracked,
    answer: &TerminalAnswer,
    now: Timestamp,
) -> Change {
    let mut change = Change::none(request);
    for (id, view) in &answer.views {
        let Some(old) = prior.containers.iter().find(|c| c.id == *id) else {
            continue;
        };
        for (name, detail) in recorded(&old.terminal, view, answer.source) {
            change.events.push(DomainEvent::new(
                request.account_id,
                name,
                Subject::Container(*id),
                Some(prior.shipment.id),
                detail,
                dedupe_key(*id, name, now),
                now,
            ));
        }
        let mut container = old.clone();
        container.current_status = view.standing(old.current_status).status;
        container.terminal = view.clone();
        if answer.checked.contains(id) {
            container.terminal_checked_at = Some(now);
        }
        if let Some((_, until)) = answer.subscribed.iter().find(|(c, _)| c == id) {
            container.terminal_subscribed_until = Some(*until);
        }
        learn_pickup_facility(&mut change, &old.terminal, view, &answer.places);
        if *view != old.terminal {
            container.updated_at = now;
            // The request moves with what it tracks, so a lookup committed meanwhile and
            // this check never overwrite each other: the later conflicts, and is taken again.
            change.request.updated_at = now;
        }
        change.delta.containers.push(container);
    }
    change
}

/// Learns the pickup facility `new` names, when it names a new one the line placed.
fn learn_pickup_facility(
    change: &mut Change,
    old: &TerminalView,
    new: &TerminalView,
    places: &[Place],
) {
    let Some(code) = new.pickup_facility.as_ref() else {
        return;
    };
    if old.pickup_facility.as_ref() == Some(code) {
        return;
    }
    let place = places.iter().find(|p| p.facility.as_ref() == Some(code));
    if let Some(place) = place
        && !change.delta.places.contains(place)
    {
        change.delta.places.push(place.clone());
    }
}

/// The events a container's terminal view moving from `old` to `new` records, as `source`
/// told it.
pub(super) fn recorded(
    old: &TerminalView,
    new: &TerminalView,
    source: DataSource,
) -> Vec<(EventName, EventDetail)> {
    let difference = terminal::diff(old, new);
    difference
        .events
        .iter()
        .map(|event| {
            let detail = EventDetail {
                changeset: match event {
                    TerminalEvent::Updated => difference.changeset.clone(),
                    _ => Default::default(),
                },
                data_source: Some(match event {
                    TerminalEvent::PodTerminalChanged(source) => *source,
                    TerminalEvent::PickupLfdLine => DataSource::ShippingLine,
                    _ => source,
                }),
                value: event.value(new),
                ..EventDetail::default()
            };
            (EventName::of_terminal(*event), detail)
        })
        .collect()
}

/// The dedupe key of a terminal event recorded for container `id` at `now`.
pub(super) fn dedupe_key(id: ContainerId, name: EventName, now: Timestamp) -> String {
    format!("{id}:{name}:{}", now.unix_micros())
}
