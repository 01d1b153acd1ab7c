//! `/{SCAC}/v2/event-subscriptions` (DCSA T&T 2.2): create, read, delete a subscription and
//! replace its secret; and `POST /admin/event-pushes`, which pushes each subscription the
//! events it has not had, signed, with the faults a subscriber must survive: a wrong
//! signature, a replay of the last batch, a batch out of order, and an event retracted
//! (sent again with `isRetracted: true`, as 3.0 marks it).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, KeyInit, Mac};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::Sha256;
use uuid::Uuid;

use super::auth::authorized;
use super::dcsa_error;
use super::listing::Asked;
use crate::event_subscriptions::{EventSubscriptions, Subscription, secret};
use crate::query::EventQuery;
use crate::world::Reference;
use crate::{Simulator, lock};

/// The body of a new subscription.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct NewSubscription {
    callback_url: String,
    secret: String,
    carrier_booking_reference: Option<String>,
    transport_document_reference: Option<String>,
    equipment_reference: Option<String>,
}

fn refuse(method: &Method, uri: &Uri, status: StatusCode, message: &str) -> Response {
    let reason = if status == StatusCode::NOT_FOUND {
        "notFound"
    } else {
        "invalidInput"
    };
    dcsa_error(method, uri, status, reason, message)
}

pub(super) async fn create_route(
    State(sim): State<Simulator>,
    Path(scac): Path<String>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if !authorized(&sim, &headers) {
        return refuse(
            &method,
            &uri,
            StatusCode::UNAUTHORIZED,
            "send valid credentials",
        );
    }
    let new: NewSubscription = match serde_json::from_slice(&body) {
        Ok(new) => new,
        Err(error) => return refuse(&method, &uri, StatusCode::BAD_REQUEST, &error.to_string()),
    };
    let reference = match (
        new.carrier_booking_reference,
        new.transport_document_reference,
        new.equipment_reference,
    ) {
        (Some(v), None, None) => Reference::Booking(v),
        (None, Some(v), None) => Reference::TransportDocument(v),
        (None, None, Some(v)) => Reference::Equipment(v),
        _ => {
            return refuse(
                &method,
                &uri,
                StatusCode::BAD_REQUEST,
                "name one shipment reference",
            );
        }
    };
    let key = match secret(&new.secret) {
        Ok(key) => key,
        Err(problem) => return refuse(&method, &uri, StatusCode::BAD_REQUEST, &problem),
    };
    if !new.callback_url.starts_with("http://") && !new.callback_url.starts_with("https://") {
        return refuse(
            &method,
            &uri,
            StatusCode::BAD_REQUEST,
            "callbackUrl is not a URL",
        );
    }
    let subscription = Subscription {
        id: uuid::Builder::from_random_bytes(rand::random()).into_uuid(),
        scac: scac.to_ascii_uppercase(),
        reference,
        callback_url: new.callback_url,
        secret: key,
        pushed: std::collections::BTreeSet::new(),
        last: Vec::new(),
    };
    let view = subscription.view();
    if !lock(&sim.state.event_subscriptions).add(subscription) {
        return refuse(
            &method,
            &uri,
            StatusCode::SERVICE_UNAVAILABLE,
            "no more subscriptions",
        );
    }
    (StatusCode::CREATED, axum::Json(view)).into_response()
}

fn id_of(text: &str) -> Option<Uuid> {
    Uuid::parse_str(text).ok()
}

/// The answer of `act` on the subscription `id` of `scac` (`None`: there is none) for a
/// caller with valid credentials.
fn on_subscription(
    sim: &Simulator,
    (scac, id): (String, String),
    (method, uri, headers): (&Method, &Uri, &HeaderMap),
    act: impl FnOnce(&mut EventSubscriptions, &str, Uuid) -> Option<Response>,
) -> Response {
    if !authorized(sim, headers) {
        return refuse(
            method,
            uri,
            StatusCode::UNAUTHORIZED,
            "send valid credentials",
        );
    }
    let scac = scac.to_ascii_uppercase();
    let mut all = lock(&sim.state.event_subscriptions);
    id_of(&id)
        .and_then(|id| act(&mut all, &scac, id))
        .unwrap_or_else(|| refuse(method, uri, StatusCode::NOT_FOUND, "no such subscription"))
}

pub(super) async fn read_route(
    State(sim): State<Simulator>,
    Path(path): Path<(String, String)>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    on_subscription(&sim, path, (&method, &uri, &headers), |all, scac, id| {
        all.get_mut(scac, id)
            .map(|subscription| axum::Json(subscription.view()).into_response())
    })
}

pub(super) async fn delete_route(
    State(sim): State<Simulator>,
    Path(path): Path<(String, String)>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    on_subscription(&sim, path, (&method, &uri, &headers), |all, scac, id| {
        all.remove(scac, id)
            .then(|| StatusCode::NO_CONTENT.into_response())
    })
}

#[derive(Debug, Deserialize)]
pub(super) struct NewSecret {
    secret: String,
}

pub(super) async fn secret_route(
    State(sim): State<Simulator>,
    Path(path): Path<(String, String)>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let context = (&method, &uri, &headers);
    on_subscription(&sim, path, context, |all, scac, id| {
        let key = match serde_json::from_slice::<NewSecret>(&body)
            .map_err(|error| error.to_string())
            .and_then(|new| secret(&new.secret))
        {
            Ok(key) => key,
            Err(problem) => return Some(refuse(&method, &uri, StatusCode::BAD_REQUEST, &problem)),
        };
        all.get_mut(scac, id).map(|subscription| {
            subscription.secret = key;
            StatusCode::NO_CONTENT.into_response()
        })
    })
}

/// What to break in the pushes.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum EventPushFault {
    WrongSignature,
    Replay,
    OutOfOrder,
    Retracted,
}

/// Which subscriptions to push to, and how.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EventPushOrder {
    #[serde(default)]
    scac: Option<String>,
    #[serde(default)]
    fault: Option<EventPushFault>,
}

/// `sha256=<hex HMAC-SHA256 of body>`.
#[must_use]
pub fn signature(secret: &[u8], body: &[u8]) -> String {
    let Ok(mut mac) = <Hmac<Sha256> as KeyInit>::new_from_slice(secret) else {
        return String::new();
    };
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// The events of `subscription` the carrier holds now.
fn events_now(sim: &Simulator, subscription: &Subscription) -> Vec<Value> {
    let filter = match &subscription.reference {
        Reference::Booking(v) => format!("carrierBookingReference={v}"),
        Reference::TransportDocument(v) => format!("transportDocumentReference={v}"),
        Reference::Equipment(v) => format!("equipmentReference={v}"),
    };
    let Ok(query) = EventQuery::parse(&format!("{filter}&limit=1000")) else {
        return Vec::new();
    };
    let plays = sim.plays(&subscription.scac);
    let asked = Asked {
        sim,
        scac: &subscription.scac,
        reference: &subscription.reference,
        query: &query,
        plays: &plays,
    };
    asked.events(u32::MAX, None).unwrap_or_default()
}

/// The batch `fault` makes for `subscription`.
fn batch(
    sim: &Simulator,
    subscription: &Subscription,
    fault: Option<EventPushFault>,
) -> Vec<Value> {
    let fresh: Vec<Value> = events_now(sim, subscription)
        .into_iter()
        .filter(|e| {
            e["eventID"]
                .as_str()
                .is_some_and(|id| !subscription.pushed.contains(id))
        })
        .collect();
    match fault {
        Some(EventPushFault::Replay) => subscription.last.clone(),
        Some(EventPushFault::OutOfOrder) => fresh.into_iter().rev().collect(),
        Some(EventPushFault::Retracted) => subscription
            .last
            .last()
            .cloned()
            .map(|mut event| {
                event["isRetracted"] = json!(true);
                vec![event]
            })
            .unwrap_or_default(),
        _ => fresh,
    }
}

pub(super) async fn push_route(State(sim): State<Simulator>, body: axum::body::Bytes) -> Response {
    let order = if body.is_empty() {
        EventPushOrder::default()
    } else {
        match serde_json::from_slice::<EventPushOrder>(&body) {
            Ok(order) => order,
            Err(error) => {
                return (
                    StatusCode::BAD_REQUEST,
                    axum::Json(json!({"error": error.to_string()})),
                )
                    .into_response();
            }
        }
    };
    let subscriptions = lock(&sim.state.event_subscriptions).of(order.scac.as_deref());
    let mut pushes = Vec::new();
    for subscription in subscriptions {
        let events = batch(&sim, &subscription, order.fault);
        if events.is_empty() {
            continue;
        }
        let body = Value::Array(events.clone()).to_string().into_bytes();
        let key = match order.fault {
            Some(EventPushFault::WrongSignature) => b"not the shared secret, not at all".to_vec(),
            _ => subscription.secret.clone(),
        };
        let answer = reqwest::Client::new()
            .post(&subscription.callback_url)
            .timeout(std::time::Duration::from_secs(30))
            .header("Content-Type", "application/json")
            .header("Notification-Signature", signature(&key, &body))
            .header("Subscription-ID", subscription.id.to_string())
            .header("API-Version", crate::API_VERSION)
            .body(body)
            .send()
            .await;
        let status = answer.as_ref().ok().map(|r| r.status().as_u16());
        if status.is_some_and(|s| (200..300).contains(&s)) {
            lock(&sim.state.event_subscriptions).pushed(subscription.id, &events);
        }
        pushes.push(
            json!({"subscription": subscription.id, "events": events.len(), "status": status}),
        );
    }
    axum::Json(json!({"pushes": pushes})).into_response()
}
