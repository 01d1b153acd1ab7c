//! A container's page: where it stands at the terminal, its holds and fees, and the last
//! free day counting down; and the one-line summary other pages list.

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use tidemark_domain::gazetteer::Gazetteer;
use tidemark_domain::terminal::Standing;
use tidemark_domain::{Container, ContainerStatus, Timestamp};

use super::extract::Segment;
use super::format::{relative, words};
use super::local::{Deadline, Moment};
use super::{Chrome, ConsoleError, Viewer, html};
use crate::AppState;

/// A container as lists show it.
#[derive(Debug, Clone)]
pub struct ContainerRow {
    /// Its id, for the link.
    pub id: String,
    /// Its number.
    pub number: String,
    /// Its status, in words.
    pub status: String,
    /// What the status means, as the pill's colour: `ok` (available), `warn` (on hold or
    /// not available), `bad` (past its last free day at the terminal), `sea` (on the water
    /// or on rail), `gone` (picked up, returned), or empty.
    pub tone: &'static str,
    /// Its last free day, when known.
    pub lfd: Option<Deadline>,
    /// The blocking holds, named: `customs, freight`.
    pub holds: String,
    /// The code of its terminal of discharge, or a dash.
    pub terminal: String,
    /// Its custom field values, as one cell (the containers list's column).
    pub fields: String,
}

/// The summary of `container` at `now`.
#[must_use]
pub fn row(container: &Container, now: Timestamp) -> ContainerRow {
    let standing = container.standing();
    let pod = container.details.pod_locode.as_deref();
    let lfd = standing.pickup_lfd.map(|at| Deadline::new(at, now, pod));
    ContainerRow {
        id: container.id.to_string(),
        number: container.number.clone(),
        status: words(standing.status.as_str()),
        tone: tone(&standing, lfd.as_ref()),
        lfd,
        holds: standing
            .holds
            .iter()
            .filter(|hold| hold.blocks())
            .map(|hold| hold.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        terminal: container
            .terminal_code()
            .map_or_else(|| "—".to_owned(), |code| code.as_str().to_owned()),
        fields: String::new(),
    }
}

/// Its terminal of discharge as people know it: its name and code where the reference
/// data knows it, else the code it was named by.
fn terminal_name(container: &Container) -> String {
    let Some(code) = container.terminal_code() else {
        return "—".into();
    };
    let port = container.details.pod_locode.as_deref();
    Gazetteer::bundled()
        .terminal(port, code.as_str())
        .map_or_else(
            || code.as_str().to_owned(),
            // The SMDG's names often end with the code already: `… ALTENWERDER (CTA)`.
            |known| {
                let tagged = format!("({})", code.as_str());
                if known.name.contains(&tagged) {
                    known.name.to_owned()
                } else {
                    format!("{} {tagged}", known.name)
                }
            },
        )
}

/// The pill's colour for a box standing so, its last free day being `lfd`.
fn tone(standing: &Standing, lfd: Option<&Deadline>) -> &'static str {
    use ContainerStatus as S;
    if standing.status.gone() {
        return "gone";
    }
    if standing.status.at_pod_terminal() && lfd.is_some_and(Deadline::passed) {
        return "bad";
    }
    match standing.status {
        S::Available | S::OffDock => "ok",
        S::NotAvailable => "warn",
        S::Grounded if standing.on_hold() => "warn",
        S::OnShip | S::OnRail => "sea",
        _ => "",
    }
}

/// A hold or a fee, as a line of the page.
#[derive(Debug)]
struct Line {
    name: String,
    state: String,
    note: String,
}

/// The container page.
#[derive(Template)]
#[template(path = "console/container.html")]
struct Page {
    chrome: Chrome,
    row: ContainerRow,
    shipment_id: String,
    availability: String,
    terminal: String,
    location: String,
    pickup_facility: String,
    appointment: Option<Moment>,
    checked: String,
    holds: Vec<Line>,
    fees: Vec<Line>,
    lfds: Vec<(&'static str, Deadline)>,
    /// Why an edit was refused.
    refused: Option<String>,
    /// The account's container fields, with this container's values.
    custom_fields: Vec<super::custom_values::FieldRow>,
    /// Where their form posts.
    fields_action: String,
}

/// What the sources say of the pickup, as the box stands.
fn availability(container: &Container) -> String {
    let standing = container.standing();
    if standing.status.gone() {
        return format!(
            "{}: no longer at the terminal",
            words(standing.status.as_str())
        );
    }
    match standing.available_for_pickup {
        None => "not known yet".into(),
        Some(true) => "available for pickup".into(),
        Some(false) if standing.on_hold() => "not available: a hold blocks the pickup".into(),
        Some(false) => "not available".into(),
    }
}

/// `GET /console/containers/{id}`.
pub async fn page(
    State(state): State<AppState>,
    viewer: Viewer,
    Segment(id): Segment,
) -> Result<Response, ConsoleError> {
    let container: Container =
        ConsoleError::found(state.store.as_ref(), viewer.account_id, &id).await?;
    render(&state, &viewer, container, None).await
}

/// The page of `container`, saying why an edit was `refused`.
pub async fn render(
    state: &AppState,
    viewer: &Viewer,
    container: Container,
    refused: Option<String>,
) -> Result<Response, ConsoleError> {
    let now = state.clock.now();
    let custom_fields = super::custom_values::rows(
        state,
        viewer.account_id,
        tidemark_domain::custom_field::EntityType::Container,
        container.id.as_uuid(),
    )
    .await?;
    let terminal = &container.terminal;
    let days = &terminal.last_free_days;
    let page = Page {
        chrome: Chrome::new(
            format!("Container {}", container.number),
            "containers",
            viewer,
        ),
        refused,
        custom_fields,
        fields_action: format!("/console/containers/{}/custom_fields", container.id),
        row: row(&container, now),
        shipment_id: container.shipment_id.to_string(),
        availability: availability(&container),
        terminal: terminal_name(&container),
        location: terminal.location.clone().unwrap_or_else(|| "—".into()),
        pickup_facility: terminal.pickup_facility.clone().unwrap_or_default(),
        appointment: terminal
            .pickup_appointment_at
            .map(|at| Moment::at(at, container.details.pod_locode.as_deref())),
        checked: container
            .terminal_checked_at
            .map_or_else(|| "never".into(), |at| relative(at, now)),
        holds: container
            .standing()
            .holds
            .iter()
            .map(|hold| Line {
                name: hold.name.as_str().to_owned(),
                state: hold.status.as_str().to_owned(),
                note: hold.description.clone().unwrap_or_default(),
            })
            .collect(),
        fees: terminal
            .fees
            .iter()
            .map(|fee| Line {
                name: words(fee.kind.as_str()),
                state: format!("{} {}", fee.amount, fee.currency.as_str()),
                note: String::new(),
            })
            .collect(),
        lfds: [
            ("shipping line", days.line),
            ("terminal", days.terminal),
            ("rail", days.rail),
        ]
        .into_iter()
        .filter_map(|(source, at)| {
            at.map(|at| {
                let pod = container.details.pod_locode.as_deref();
                (source, Deadline::new(at, now, pod))
            })
        })
        .collect(),
    };
    html(&page)
}
