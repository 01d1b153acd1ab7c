//! `POST /carrier-callbacks/{scac}` (api.md §7), where a carrier pushes the events of a
//! DCSA 2.2 event subscription, signed; `POST /carrier-callbacks/{scac}/arrival-notices` and
//! `POST /carrier-callbacks/{scac}/arrival-notice-notifications` (api.md §4a): where a line
//! pushes its Arrival Notices (DCSA Arrival Notice 1.0.1, subscriber side); and
//! `POST /terminal-callbacks/{code}/import-availability`, where a terminal pushes its
//! answers to a subscription (the terminal protocol, `docs/terminals.md`). The API only
//! carries them: it takes the party's bearer token, checks the media type and the size, and
//! hands the body to the [`CarrierCallbacks`] the binary wires in (the workers'), which
//! authenticates the party, reads the body and commits what it changes before answering.
//! These routes take no API key: the party is no account of ours.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;

use crate::error::{ErrorCode, ErrorSource};
use crate::extract::{PathId, read_body};

mod schemas;
use crate::{ApiError, AppState};
pub use schemas::{
    AvailabilityPush, AvailabilityReceipt, Feedback, FeedbackElement, NoticesPush,
    NotificationsPush,
};
pub use tidemark_app::callbacks::{Callback, CallbackReply, CarrierCallbacks, Credential};

/// The version of the standard the answers speak.
const API_VERSION: &str = "1.0.1";

/// Largest push taken: notices may embed their PDF visualization.
pub const CALLBACK_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The callback routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/carrier-callbacks/{scac}", post(carrier_events))
        .route(
            "/carrier-callbacks/{scac}/v3/events",
            post(carrier_events_v3),
        )
        .route(
            "/carrier-callbacks/{scac}/arrival-notices",
            post(arrival_notices),
        )
        .route(
            "/carrier-callbacks/{scac}/arrival-notice-notifications",
            post(arrival_notice_notifications),
        )
        .route(
            "/terminal-callbacks/{code}/import-availability",
            post(terminal_availability),
        )
}

/// Receives a terminal's answer to a subscription (the terminal protocol, beyond the
/// reference API): applied to every open request tracking one of its boxes at that
/// terminal before the answer.
#[utoipa::path(post, path = "/terminal-callbacks/{code}/import-availability", tag = "Carrier callbacks",
    operation_id = "receiveTerminalAvailability",
    security(("callback_token" = [])),
    params(("code" = String, Path, description = "The terminal pushing (SMDG, BIC facility or FIRMS code)")),
    request_body(content = AvailabilityPush, description = "The protocol's answer", content_type = "application/json"),
    responses(
        (status = 200, description = "Applied.", body = AvailabilityReceipt),
    ))]
pub async fn terminal_availability(
    state: State<AppState>,
    code: PathId,
    request: Request,
) -> Result<Response, ApiError> {
    receive(state, code, request, Callback::TerminalAvailability).await
}

/// Receives a line's Arrival Notices (DCSA AN 1.0.1 `POST /arrival-notices`, subscriber
/// side; beyond the reference API). Each notice is applied to every open request tracking
/// its bill before the answer; a notice older than the one held changes nothing.
#[utoipa::path(post, path = "/carrier-callbacks/{scac}/arrival-notices", tag = "Carrier callbacks",
    operation_id = "receiveArrivalNotices",
    security(("callback_token" = [])),
    params(("scac" = String, Path, description = "The line pushing")),
    request_body(content = NoticesPush, description = "DCSA `PostArrivalNoticesRequest`", content_type = "application/json"),
    responses(
        (status = 200, description = "Taken; each notice's fate in `feedbackElements`.", body = Feedback),
        (status = 400, description = "Nothing in the push could be read.", body = Feedback),
    ))]
pub async fn arrival_notices(
    state: State<AppState>,
    scac: PathId,
    request: Request,
) -> Result<Response, ApiError> {
    receive(state, scac, request, Callback::ArrivalNotices).await
}

/// Receives a line's word that Arrival Notices are out (DCSA AN 1.0.1
/// `POST /arrival-notice-notifications`; beyond the reference API): each tracked bill's
/// notice is read from the line's publisher at once, in the background.
#[utoipa::path(post, path = "/carrier-callbacks/{scac}/arrival-notice-notifications", tag = "Carrier callbacks",
    operation_id = "receiveArrivalNoticeNotifications",
    security(("callback_token" = [])),
    params(("scac" = String, Path, description = "The line pushing")),
    request_body(content = NotificationsPush, description = "DCSA `PostArrivalNoticeNotificationsRequest`", content_type = "application/json"),
    responses(
        (status = 200, description = "Taken; each notification's fate in `feedbackElements`.", body = Feedback),
        (status = 400, description = "Nothing in the push could be read.", body = Feedback),
    ))]
pub async fn arrival_notice_notifications(
    state: State<AppState>,
    scac: PathId,
    request: Request,
) -> Result<Response, ApiError> {
    receive(state, scac, request, Callback::ArrivalNoticeNotifications).await
}

/// What the caller presented: a bearer token, or (for a carrier's events) the
/// subscription and the signature.
fn presented(
    headers: &axum::http::HeaderMap,
    kind: Callback,
) -> Result<(Option<String>, String, String), ApiError> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(|value| value.trim().to_owned())
            .filter(|value| !value.is_empty())
    };
    if kind == Callback::Events {
        return Ok((
            None,
            header("Subscription-ID").ok_or_else(unsigned)?,
            header("Notification-Signature").ok_or_else(unsigned)?,
        ));
    }
    let token = header(AUTHORIZATION.as_str())
        .and_then(|value| value.strip_prefix("Bearer ").map(|t| t.trim().to_owned()))
        .filter(|token| !token.is_empty())
        .ok_or_else(unauthorized)?;
    Ok((Some(token), String::new(), String::new()))
}

/// A carrier's push without a valid signature of a subscription of ours.
fn unsigned() -> ApiError {
    ErrorCode::Unauthorized.at(
        "send the Subscription-ID of a subscription of ours and its Notification-Signature (sha256=<hex HMAC-SHA256 of the body>)",
        ErrorSource::Header("Notification-Signature".into()),
    )
}

/// Receives a carrier's events pushed to a subscription Tidemark made (DCSA T&T 2.2
/// callback; beyond the reference API). The `Notification-Signature` is checked over the
/// raw body with the subscription's secret; new events queue the shipment's refresh at
/// once, which commits them as any lookup does.
#[utoipa::path(post, path = "/carrier-callbacks/{scac}", tag = "Carrier callbacks",
    operation_id = "receiveCarrierEvents",
    security(("notification_signature" = [])),
    params(
        ("scac" = String, Path, description = "The carrier pushing"),
        ("Subscription-ID" = String, Header, description = "The subscription the carrier pushes to"),
        ("Notification-Signature" = String, Header, description = "`sha256=<hex HMAC-SHA256 of the raw body, keyed with the subscription's secret>`"),
    ),
    request_body(content = Vec<Object>, description = "DCSA 2.2 events (`transportEvent`, `shipmentEvent`, `equipmentEvent`)", content_type = "application/json"),
    responses(
        (status = 204, description = "Taken."),
    ))]
pub async fn carrier_events(
    state: State<AppState>,
    scac: PathId,
    request: Request,
) -> Result<Response, ApiError> {
    receive(state, scac, request, Callback::Events).await
}

/// Receives a carrier's events pushed as DCSA T&T 3.0 does (the consumer's `POST /events`,
/// beta of 2026-05-25; beyond the reference API), with the token configured for the
/// carrier (`[carriers.callbacks.SCAC]`). Every open request of the carrier tracking a
/// document or a container the events name is read again at once.
#[utoipa::path(post, path = "/carrier-callbacks/{scac}/v3/events", tag = "Carrier callbacks",
    operation_id = "receiveCarrierEventsV3",
    security(("callback_token" = [])),
    params(("scac" = String, Path, description = "The carrier pushing")),
    request_body(content = Object, description = "DCSA 3.0 `PostEventsRequest`: `{\"events\": […]}`, at most 1,000", content_type = "application/json"),
    responses(
        (status = 200, description = "Taken; what was done in `feedbackElements` (`PostEventsResponse`).", body = Feedback),
        (status = 400, description = "Nothing in the push could be read (`PostEventsError`).", body = Feedback),
    ))]
pub async fn carrier_events_v3(
    state: State<AppState>,
    scac: PathId,
    request: Request,
) -> Result<Response, ApiError> {
    receive(state, scac, request, Callback::EventsV3).await
}

fn unauthorized() -> ApiError {
    ErrorCode::Unauthorized
        .at(
            "send the callback token as Authorization: Bearer <token>",
            ErrorSource::Header("Authorization".into()),
        )
        .with_header(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"))
}

async fn receive(
    State(state): State<AppState>,
    PathId(scac): PathId,
    request: Request,
    kind: Callback,
) -> Result<Response, ApiError> {
    let Some(callbacks) = state.callbacks.as_ref().map(Arc::clone) else {
        return Err(ApiError::not_found(
            "this process does not receive carrier callbacks",
        ));
    };
    let (token, subscription, signature) = presented(request.headers(), kind)?;
    crate::negotiation::check_content_type(request.headers())?;
    let deadlines = crate::extract::BodyDeadlines::of(&state.config);
    let body = read_body(request, CALLBACK_BODY_BYTES, deadlines).await?;
    let credential = match &token {
        Some(token) => Credential::Bearer(token),
        None => Credential::Signed {
            subscription: &subscription,
            signature: &signature,
        },
    };
    let unauthorized = || match kind {
        Callback::Events => unsigned(),
        _ => unauthorized(),
    };
    match callbacks.receive(kind, &scac, credential, body).await {
        CallbackReply::Accepted => Ok(StatusCode::NO_CONTENT.into_response()),
        CallbackReply::Answered { status, body } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
            let mut response = (status, axum::Json(body)).into_response();
            let version = match kind {
                Callback::ArrivalNotices | Callback::ArrivalNoticeNotifications => {
                    Some(API_VERSION)
                }
                Callback::EventsV3 => Some("3.0.0"),
                Callback::TerminalAvailability | Callback::Events => None,
            };
            if let Some(version) = version {
                response
                    .headers_mut()
                    .insert("API-Version", HeaderValue::from_static(version));
            }
            Ok(response)
        }
        CallbackReply::Refused(detail) => Err(ApiError::malformed_json(detail, None)),
        CallbackReply::Unauthorized => Err(unauthorized()),
        CallbackReply::Unavailable => Err(ErrorCode::Unavailable
            .error("the push could not be stored now; send it again")
            .with_header(RETRY_AFTER, HeaderValue::from_static("5"))),
    }
}
