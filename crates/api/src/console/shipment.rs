//! A shipment's page: its route with the ports, its containers, and a timeline of
//! milestones per container, what happened told apart from what is expected. Voyage times
//! are local to their port; the arrival is weighed against the first estimate; estimates
//! a newer one superseded fold into an ETA history rather than repeat in the timeline.

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use tidemark_domain::{
    Estimate, Milestone, Route, Shipment, Timestamp, TrackingSource, TransportEvent,
    TransportEventKind,
};

use super::container::{ContainerRow, row};
use super::extract::Segment;
use super::format::{event_phrase, maybe_place, maybe_when, place, when};
use super::local::{Moment, lateness};
use super::shipment_actions::Done;
use super::{Chrome, ConsoleError, Viewer, html};
use crate::AppState;

/// One line of a container's timeline.
#[derive(Debug)]
struct Step {
    what: String,
    at: Moment,
    place: String,
    vessel: String,
    /// `actual` or `estimated`.
    kind: &'static str,
}

/// A container and its timeline.
#[derive(Debug)]
struct Timeline {
    container: ContainerRow,
    steps: Vec<Step>,
    /// The estimates newer ones superseded, or that came true, oldest first.
    history: Vec<Step>,
}

/// The shipment page.
#[derive(Template)]
#[template(path = "console/shipment.html")]
struct Page {
    chrome: Chrome,
    /// Its id, for the actions' forms.
    id: String,
    /// Whether its tracking is stopped (the page offers resume, else stop and refresh).
    stopped: bool,
    /// What the last action did, or why it was refused.
    notice: Notice,
    scac: String,
    /// The customer's name, when its tracking request names one.
    customer: Option<String>,
    simulated: bool,
    tracking: String,
    ports: Vec<(&'static str, String)>,
    times: Vec<(&'static str, Moment)>,
    /// How late the arrival is against the first estimate, and whether it is late.
    lateness: Option<(String, bool)>,
    vessel: String,
    timelines: Vec<Timeline>,
    /// The account's shipment fields, with this shipment's values.
    custom_fields: Vec<super::custom_values::FieldRow>,
    /// Where their form posts.
    fields_action: String,
    /// The voyage drawn, when its ports can be placed.
    map: Option<super::voyage_map::VoyageMap>,
}

fn step(event: &TransportEvent) -> Step {
    let locode = event.location.as_ref().map(|place| place.locode.as_str());
    Step {
        what: event_phrase(&event.kind.name()),
        at: Moment::at(event.timestamp, locode),
        place: maybe_place(event.location.as_ref()),
        vessel: event
            .vessel
            .as_ref()
            .map(|vessel| vessel.name.clone().unwrap_or_else(|| vessel.imo.clone()))
            .unwrap_or_default(),
        kind: match event.kind {
            TransportEventKind::Actual(_) => "actual",
            TransportEventKind::Estimated(_) => "estimated",
        },
    }
}

/// The container's milestones, oldest first, then what the route still expects of the
/// voyage: the departure and the arrival while neither has happened to this container.
/// Its estimate events are the ETA history (`history`), not steps: the route's current
/// estimate stands for them.
fn steps(shipment: &Shipment, events: &[&TransportEvent]) -> Vec<Step> {
    let mut steps: Vec<Step> = events
        .iter()
        .filter(|event| matches!(event.kind, TransportEventKind::Actual(_)))
        .map(|event| step(event))
        .collect();
    let happened = |milestone: Milestone| {
        events
            .iter()
            .any(|event| event.kind == TransportEventKind::Actual(milestone))
    };
    let route = &shipment.route;
    let expected: [(Milestone, Estimate, Option<Timestamp>, &Option<_>); 2] = [
        (
            Milestone::VesselDeparted,
            Estimate::VesselDeparted,
            route.pol_etd_at,
            &route.port_of_lading,
        ),
        (
            Milestone::VesselArrived,
            Estimate::VesselArrived,
            route.pod_eta_at,
            &route.port_of_discharge,
        ),
    ];
    for (milestone, estimate, at, port) in expected {
        if let Some(at) = at
            && !happened(milestone)
        {
            let locode = port
                .as_ref()
                .map(|place: &tidemark_domain::Place| place.locode.as_str());
            steps.push(Step {
                what: format!("{} (expected)", event_phrase(estimate.event_name())),
                at: Moment::at(at, locode),
                place: maybe_place(port.as_ref()),
                vessel: route
                    .pod_vessel
                    .as_ref()
                    .and_then(|vessel| vessel.name.clone())
                    .unwrap_or_default(),
                kind: "estimated",
            });
        }
    }
    steps
}

/// The estimates the carrier gave for this container, oldest first.
fn history(events: &[&TransportEvent]) -> Vec<Step> {
    events
        .iter()
        .filter(|event| matches!(event.kind, TransportEventKind::Estimated(_)))
        .map(|event| step(event))
        .collect()
}

/// The route's ports, named.
fn ports(route: &Route) -> Vec<(&'static str, String)> {
    [
        ("Port of loading", route.port_of_lading.as_ref()),
        ("Port of discharge", route.port_of_discharge.as_ref()),
        ("Destination", route.destination.as_ref()),
    ]
    .into_iter()
    .filter_map(|(label, at)| at.map(|at| (label, place(at))))
    .collect()
}

/// The voyage's departure and arrival, first estimated, estimated (by the carrier, and by
/// Tidemark from the vessel's position) and actual, as far as known, each in its port's
/// local time.
fn times(route: &Route, predicted: Option<Timestamp>) -> Vec<(&'static str, Moment)> {
    let code = |place: &Option<tidemark_domain::Place>| place.as_ref().map(|p| p.locode.clone());
    let (pol, pod) = (code(&route.port_of_lading), code(&route.port_of_discharge));
    [
        ("Departure, first estimate", route.pol_original_etd_at, &pol),
        ("Departure, estimated", route.pol_etd_at, &pol),
        ("Departed", route.pol_atd_at, &pol),
        ("Arrival, first estimate", route.pod_original_eta_at, &pod),
        ("Arrival, estimated", route.pod_eta_at, &pod),
        (
            "Arrival, Tidemark's estimate from the vessel's position",
            predicted.filter(|_| route.pod_ata_at.is_none()),
            &pod,
        ),
        ("Arrived", route.pod_ata_at, &pod),
    ]
    .into_iter()
    .filter_map(|(label, at, port)| at.map(|at| (label, Moment::at(at, port.as_deref()))))
    .collect()
}

/// How late the arrival is (or was) against its first estimate.
fn arrival_lateness(route: &Route) -> Option<(String, bool)> {
    let first = route.pod_original_eta_at?;
    let now_expected = route.pod_ata_at.or(route.pod_eta_at)?;
    Some(lateness(first, now_expected))
}

/// The vessel to the port of discharge and its voyage.
fn vessel(route: &Route) -> String {
    match (&route.pod_vessel, &route.pod_voyage_number) {
        (Some(vessel), voyage) => format!(
            "{}{}",
            vessel.name.clone().unwrap_or_else(|| vessel.imo.clone()),
            voyage
                .as_ref()
                .map(|voyage| format!(", voyage {voyage}"))
                .unwrap_or_default()
        ),
        (None, _) => "—".into(),
    }
}

/// What the page says above the route after an action (`shipment_actions`).
#[derive(Debug, Default)]
pub enum Notice {
    /// Nothing.
    #[default]
    None,
    /// What was done.
    Done(&'static str),
    /// Why it was not done.
    Refused(String),
}

/// `GET /console/shipments/{id}` (`?done=stop|resume|refresh` after an action).
pub async fn page(
    State(state): State<AppState>,
    viewer: Viewer,
    Segment(id): Segment,
    Done(done): Done,
) -> Result<Response, ConsoleError> {
    let store = state.store.as_ref();
    let shipment: Shipment = ConsoleError::found(store, viewer.account_id, &id).await?;
    let notice = done.map_or(Notice::None, |action| Notice::Done(action.done()));
    render(&state, &viewer, shipment, notice).await
}

/// The page of `shipment`, with `notice`.
pub async fn render(
    state: &AppState,
    viewer: &Viewer,
    shipment: Shipment,
    notice: Notice,
) -> Result<Response, ConsoleError> {
    let account = viewer.account_id;
    let store = state.store.as_ref();
    let containers = store.containers(account, &[], &[shipment.id]).await?;
    let ids: Vec<_> = containers.iter().map(|container| container.id).collect();
    let events = store.transport_events(account, &ids).await?;
    let customers = store
        .customers_of_shipments(account, &[shipment.id])
        .await?;
    let now = state.clock.now();
    let view = tidemark_app::voyage::VoyageView::read(store, &shipment, &events).await?;
    let route = &shipment.route;
    let custom_fields = super::custom_values::rows(
        state,
        account,
        tidemark_domain::custom_field::EntityType::Shipment,
        shipment.id.as_uuid(),
    )
    .await?;
    let page = Page {
        map: super::voyage_map::draw(&view),
        custom_fields,
        fields_action: format!("/console/shipments/{}/custom_fields", shipment.id),
        chrome: Chrome::new(
            format!("Shipment {}", shipment.bill_of_lading_number),
            "shipments",
            viewer,
        ),
        id: shipment.id.to_string(),
        stopped: shipment.stopped_at.is_some(),
        notice,
        scac: shipment.scac.to_string(),
        customer: customers
            .into_iter()
            .next()
            .map(|(_, party)| party.company_name.to_string()),
        simulated: shipment.source == TrackingSource::Sandbox,
        tracking: match (shipment.stopped_at, &shipment.stopped_reason) {
            (Some(at), Some(reason)) => format!("stopped {} ({})", when(at), reason.as_str()),
            (Some(at), None) => format!("stopped {}", when(at)),
            (None, _) => format!(
                "tracked; last checked {}",
                maybe_when(shipment.last_succeeded_at)
            ),
        },
        ports: ports(route),
        times: times(route, shipment.pod_predicted_eta_at),
        lateness: arrival_lateness(route),
        vessel: vessel(route),
        timelines: containers
            .iter()
            .map(|container| {
                let own: Vec<&TransportEvent> = events
                    .iter()
                    .filter(|event| event.container_id == container.id)
                    .collect();
                Timeline {
                    container: row(container, now),
                    steps: steps(&shipment, &own),
                    history: history(&own),
                }
            })
            .collect(),
    };
    html(&page)
}
