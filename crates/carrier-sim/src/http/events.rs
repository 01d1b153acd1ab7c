//! `GET /{SCAC}/v2/events`: DCSA Track & Trace 2.2 events of a shipment, with the
//! scripted sandbox numbers, the faults asked for, and paging.

use std::time::Duration as StdDuration;

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::auth::authorized;
use super::listing::{Asked, played};
use super::{LineCall, with_version};
use crate::faults::{Fault, Party};
use crate::query::{EventQuery, cursor};
use crate::scenario::{Script, script};
use crate::world::{Outcome, Placement};
use crate::{NextPage, Simulator, lock};

fn valid_scac(scac: &str) -> bool {
    (2..=4).contains(&scac.len()) && scac.bytes().all(|b| b.is_ascii_alphanumeric())
}

pub(super) async fn events_route(State(sim): State<Simulator>, call: LineCall) -> Response {
    let error = |status, reason: &str, message: &str| call.error(status, reason, message);
    let (method, uri) = (&call.method, &call.uri);
    if !valid_scac(&call.scac) {
        return error(
            StatusCode::NOT_FOUND,
            "notFound",
            "no carrier has this code",
        );
    }
    let scac = call.scac.to_ascii_uppercase();
    sim.note_call(&scac);
    if !authorized(&sim, &call.headers) {
        return error(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "send a valid API-Key header",
        );
    }
    let mut query = match EventQuery::parse(&call.query) {
        Ok(query) => query,
        Err(invalid) => return error(StatusCode::BAD_REQUEST, invalid.reason, &invalid.message),
    };
    let plays = sim.plays(&scac);
    let container = match plays.narrow(&mut query) {
        Ok(container) => container,
        Err(answer) => return played(method, uri, answer),
    };
    let Some(reference) = query.references.first().cloned() else {
        return error(StatusCode::BAD_REQUEST, "invalidQuery", "name the shipment");
    };
    let lookup = count_lookup(&sim, &scac, reference.value(), query.has_cursor);
    let fault = lock(&sim.state.faults).take(Party::Carrier(&scac), &[reference.value()]);
    match before_answering(fault.as_ref(), query.has_cursor).await {
        Some(Early::Refuse(refusal)) => {
            return refusal.with_retry_after(error(
                refusal.status,
                refusal.reason,
                refusal.message,
            ));
        }
        Some(Early::EmptyPage) => return page_response(&sim, uri, &query, Vec::new(), Some(0)),
        None => {}
    }
    let asked = Asked {
        sim: &sim,
        scac: &scac,
        reference: &reference,
        query: &query,
        plays: &plays,
    };
    let mut visible = match asked.events(lookup, container.as_deref()) {
        Ok(events) => events,
        Err(answer) => return played(method, uri, answer),
    };
    reshape(fault.as_ref(), &mut visible);
    let total = visible.len();
    let start = query.offset.min(total);
    let end = start.saturating_add(query.limit).min(total);
    let mut page: Vec<Value> = visible[start..end].to_vec();
    let next = (end < total).then_some(end);
    if let Some(damaged) = damage(fault.as_ref(), &mut page) {
        return damaged;
    }
    page_response(&sim, uri, &query, page, next)
}

/// The 2.2 answer to `query`, to be written again in another version's shape: its
/// status and headers, and its body when it is JSON (a fault's damaged page is not).
pub(super) async fn answer_as_2_2(
    sim: Simulator,
    call: LineCall,
    query: String,
) -> (axum::http::response::Parts, Option<Value>) {
    /// The largest 2.2 answer written again.
    const MAX_BODY: usize = 64 * 1024 * 1024;
    let answer = events_route(State(sim), LineCall { query, ..call }).await;
    let (parts, body) = answer.into_parts();
    let read = axum::body::to_bytes(body, MAX_BODY)
        .await
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok());
    (parts, read)
}

/// A DCSA error answer to give instead of events.
pub(super) struct Refusal {
    pub(super) status: StatusCode,
    pub(super) reason: &'static str,
    pub(super) message: &'static str,
    pub(super) retry_after: Option<u32>,
}

impl Refusal {
    /// `response` with this refusal's `Retry-After`, when it has one.
    pub(super) fn with_retry_after(&self, mut response: Response) -> Response {
        if let Some(value) = self
            .retry_after
            .and_then(|seconds| HeaderValue::from_str(&seconds.to_string()).ok())
        {
            response.headers_mut().insert("Retry-After", value);
        }
        response
    }

    pub(super) const fn new(
        status: StatusCode,
        reason: &'static str,
        message: &'static str,
    ) -> Self {
        Self {
            status,
            reason,
            message,
            retry_after: None,
        }
    }
}

/// What a fault makes of a request before any event is read.
pub(super) enum Early {
    Refuse(Refusal),
    EmptyPage,
}

/// Counts a lookup of `reference` (a follow-up page is not a new lookup) and returns its
/// number, from 1.
fn count_lookup(sim: &Simulator, scac: &str, reference: &str, follow_up: bool) -> u32 {
    let mut lookups = lock(&sim.state.lookups);
    let key = (scac.to_owned(), reference.to_owned());
    if follow_up {
        return lookups.get(&key).copied().unwrap_or(1);
    }
    let count = lookups.entry(key).or_insert(0);
    *count += 1;
    *count
}

/// The faults that answer before events are read: errors, rate limits, refusals, a
/// timeout or a delay, an empty first page.
pub(super) async fn before_answering(fault: Option<&Fault>, follow_up: bool) -> Option<Early> {
    let refuse =
        |status, reason, message| Some(Early::Refuse(Refusal::new(status, reason, message)));
    match fault? {
        Fault::ServerError {
            status,
            retry_after_seconds,
        } => Some(Early::Refuse(Refusal {
            retry_after: *retry_after_seconds,
            ..Refusal::new(
                StatusCode::from_u16(*status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                "internalError",
                "the carrier's system failed",
            )
        })),
        Fault::RateLimited {
            retry_after_seconds,
        } => Some(Early::Refuse(Refusal {
            retry_after: Some(*retry_after_seconds),
            ..Refusal::new(
                StatusCode::TOO_MANY_REQUESTS,
                "tooManyRequests",
                "slow down",
            )
        })),
        Fault::Unauthorized => refuse(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "the key was refused",
        ),
        Fault::Forbidden => refuse(
            StatusCode::FORBIDDEN,
            "forbidden",
            "this shipment is not shared with you",
        ),
        Fault::BadReference => refuse(
            StatusCode::BAD_REQUEST,
            "invalidQuery",
            "the reference is not valid for this carrier",
        ),
        Fault::Timeout => {
            tokio::time::sleep(StdDuration::from_secs(3600)).await;
            refuse(StatusCode::GATEWAY_TIMEOUT, "timeout", "gave up")
        }
        Fault::Slow { delay_ms } => {
            tokio::time::sleep(StdDuration::from_millis(*delay_ms)).await;
            None
        }
        Fault::EmptyPage if !follow_up => Some(Early::EmptyPage),
        _ => None,
    }
}

/// The shipment a reference names: a scripted sandbox number's, or one seeded from the
/// reference; whether only its booking is visible yet (not manifested).
pub(super) fn shipment_of(
    scac: &str,
    reference: &str,
    lookup: u32,
) -> Result<(Option<Outcome>, Placement, bool), Refusal> {
    let unavailable = || {
        Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "serviceUnavailable",
            "try again later",
        )
    };
    let sails = || Placement::Before(time::Duration::days(20));
    Ok(match script(scac, reference) {
        Some(Script::Unknown) => {
            return Err(Refusal::new(
                StatusCode::NOT_FOUND,
                "notFound",
                "no shipment has this reference",
            ));
        }
        Some(Script::AlwaysFail) => return Err(unavailable()),
        Some(Script::FailFirstLookups(n)) if lookup <= n => return Err(unavailable()),
        Some(Script::ManifestedFromLookup(n)) => (Some(Outcome::Sails), sails(), lookup < n),
        Some(Script::Shipment(outcome, placement)) => (Some(outcome), placement, false),
        Some(Script::FailFirstLookups(_)) => (Some(Outcome::Sails), sails(), false),
        None => (None, Placement::Seeded, false),
    })
}

/// The faults that change which events are listed: each twice, or the latest actual one
/// retracted.
fn reshape(fault: Option<&Fault>, visible: &mut Vec<Value>) {
    match fault {
        Some(Fault::Duplicate) => {
            *visible = visible.drain(..).flat_map(|e| [e.clone(), e]).collect();
        }
        Some(Fault::Retract) => {
            let latest = visible
                .iter()
                .enumerate()
                .filter(|(_, e)| e["eventClassifierCode"] == "ACT")
                .max_by_key(|(_, e)| e["eventDateTime"].as_str().map(str::to_owned))
                .map(|(i, _)| i);
            if let Some(index) = latest {
                visible.remove(index);
            }
        }
        _ => {}
    }
}

/// The faults that damage the page: events outside the schema, malformed or truncated
/// JSON (answered at once), a huge page.
fn damage(fault: Option<&Fault>, page: &mut Vec<Value>) -> Option<Response> {
    let text = |body: String| {
        with_version((StatusCode::OK, [("Content-Type", "application/json")], body).into_response())
    };
    match fault {
        Some(Fault::SchemaInvalid) => {
            for event in page.iter_mut() {
                if let Some(object) = event.as_object_mut() {
                    object.remove("eventClassifierCode");
                    object.remove("eventDateTime");
                    object.insert("eventType".into(), json!("PARCEL"));
                }
            }
            None
        }
        Some(Fault::MalformedJson) => {
            Some(text("<html>Service temporarily degraded</html>".to_owned()))
        }
        Some(Fault::TruncatedJson) => {
            let whole = serde_json::to_string(&page).unwrap_or_default();
            let cut = whole.len() / 2;
            Some(text(whole[..cut].to_owned()))
        }
        Some(Fault::Huge { bytes }) => {
            let template = page
                .first()
                .cloned()
                .unwrap_or_else(|| json!({"padding": "x".repeat(1024)}));
            let size = serde_json::to_string(&template).map_or(1, |t| t.len().max(1));
            page.extend(std::iter::repeat_n(template, bytes / size + 1));
            None
        }
        _ => None,
    }
}

fn page_response(
    sim: &Simulator,
    uri: &Uri,
    query: &EventQuery,
    page: Vec<Value>,
    next: Option<usize>,
) -> Response {
    let mut response = axum::Json(page).into_response();
    if let Some(next) = next {
        let value = match sim.state.config.next_page {
            NextPage::Token => cursor(next),
            NextPage::Url => {
                let mut params = form_urlencoded::Serializer::new(String::new());
                for (key, value) in &query.passthrough {
                    params.append_pair(key, value);
                }
                params.append_pair("cursor", &cursor(next));
                format!("{}?{}", uri.path(), params.finish())
            }
        };
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert("Next-Page", value);
        }
    }
    if let Ok(value) = HeaderValue::from_str(&cursor(query.offset)) {
        response.headers_mut().insert("Current-Page", value);
    }
    with_version(response)
}
