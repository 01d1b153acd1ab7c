//! What a terminal check changes in a tracked shipment: each answered container's view,
//! status and check time, and the events the views' differences record (api.md §4a). An
//! answer that says what the last one said records nothing.

use super::Change;
use crate::terminal::{self, DataSource, TerminalEvent, TerminalReport, TerminalView};
use crate::{
    ContainerId, DomainEvent, EventDetail, EventName, Subject, Timestamp, Tracked, TrackingRequest,
};

/// What the terminal sources said of a shipment's containers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TerminalAnswer {
    /// The views given, per container; a container not listed was not answered for.
    pub views: Vec<(ContainerId, TerminalView)>,
    /// Who gave them: the events they record say so (`data_source`).
    pub source: DataSource,
}

impl TerminalAnswer {
    /// The views of `tracked`'s containers after the terminals' `reports`, by container
    /// number; a number not of this shipment is ignored.
    #[must_use]
    pub fn of_reports<'a>(
        tracked: &Tracked,
        reports: impl IntoIterator<Item = (&'a str, &'a TerminalReport)>,
    ) -> Self {
        let views = reports
            .into_iter()
            .filter_map(|(number, report)| {
                let container = tracked.containers.iter().find(|c| c.number == number)?;
                Some((container.id, container.terminal.with_report(report)))
            })
            .collect();
        Self {
            views,
            source: DataSource::Terminal,
        }
    }
}

/// The change of `request`, tracked as `prior`, after `answer` at `now`. The request's
/// `updated_at` moves with it, so a lookup committed meanwhile and this check never
/// overwrite each other: the later of the two conflicts and is taken again.
pub(super) fn check(
    request: &TrackingRequest,
    prior: &Tracked,
    answer: &TerminalAnswer,
    now: Timestamp,
) -> Change {
    let mut change = Change::to(
        request,
        TrackingRequest {
            updated_at: now,
            ..request.clone()
        },
    );
    for (id, view) in &answer.views {
        let Some(old) = prior.containers.iter().find(|c| c.id == *id) else {
            continue;
        };
        let difference = terminal::diff(&old.terminal, view);
        for event in &difference.events {
            let detail = EventDetail {
                changeset: match event {
                    TerminalEvent::Updated => difference.changeset.clone(),
                    _ => Default::default(),
                },
                data_source: match event {
                    TerminalEvent::PodTerminalChanged(source) => Some(*source),
                    _ => Some(answer.source),
                },
                value: event.value(view),
                ..EventDetail::default()
            };
            let name = EventName::of_terminal(*event);
            change.events.push(DomainEvent::new(
                request.account_id,
                name,
                Subject::Container(*id),
                Some(prior.shipment.id),
                detail,
                format!("{id}:{name}:{}", now.unix_micros()),
                now,
            ));
        }
        let mut container = old.clone();
        container.current_status = view.status(old.current_status);
        container.terminal = view.clone();
        container.terminal_checked_at = Some(now);
        if !difference.is_empty() {
            container.updated_at = now;
        }
        change.containers.push(container);
    }
    change
}
