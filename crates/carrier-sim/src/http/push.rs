//! Pushes to subscribers, on the admin API's word:
//!
//! - `POST /admin/arrival-notice-pushes`: the line pushes a bill's Arrival Notice, or the
//!   notification that it is out, to a subscriber (DCSA AN 1.0.1: the subscriber's
//!   `POST {subscriber}/arrival-notices` and `POST {subscriber}/arrival-notice-notifications`),
//!   with `Authorization: Bearer {token}`, and answers with what the subscriber said.
//! - `POST /admin/terminal-pushes`: every terminal pushes its answer of the boxes
//!   subscribed to (`POST /terminals/{CODE}/import-availability/subscriptions`) to each
//!   subscriber, as it stands now, and answers with what each subscriber said.
//!
//! A notice may name another pickup facility (`pickup_facility`) than the terminal of
//! discharge. Faults: `stale` pushes a notice's first version (an old one, replayed late), `garbled`
//! a body that is not JSON, `wrong_token` another token.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::notices::{Issue, notice_of};
use crate::{Simulator, lock};

/// What to push, where.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PushOrder {
    /// The subscriber's base URL.
    subscriber: String,
    /// The token it expects.
    token: String,
    /// The line.
    scac: String,
    /// The bill whose notice is pushed.
    bill: String,
    /// `notices` (default) or `notifications`.
    #[serde(default, rename = "as")]
    kind: Kind,
    /// A fault to play.
    #[serde(default)]
    fault: Option<PushFault>,
    /// The facility (an SMDG code) the notice names for every box's pickup, at the port
    /// of discharge, instead of the terminal of discharge: an off-dock ramp or depot.
    #[serde(default)]
    pickup_facility: Option<String>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    #[default]
    Notices,
    Notifications,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum PushFault {
    Stale,
    Garbled,
    WrongToken,
}

/// Sends `body` to `url` with `token`; the subscriber's status and answer.
async fn send(
    url: &str,
    token: &str,
    body: Vec<u8>,
    version: Option<&str>,
) -> Result<Value, String> {
    let mut request = reqwest::Client::new()
        .post(url)
        .timeout(Duration::from_secs(30))
        .bearer_auth(token)
        .header("Content-Type", "application/json")
        .body(body);
    if let Some(version) = version {
        request = request.header("API-Version", version);
    }
    let response = request
        .send()
        .await
        .map_err(|error| format!("{url}: {error}"))?;
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    let answer = serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text));
    Ok(json!({"status": status, "body": answer}))
}

/// What to break in a terminal's pushes.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TerminalPushOrder {
    #[serde(default)]
    fault: Option<PushFault>,
}

pub(super) async fn terminal_push_route(
    State(sim): State<Simulator>,
    body: axum::body::Bytes,
) -> Response {
    let order = if body.is_empty() {
        TerminalPushOrder::default()
    } else {
        match serde_json::from_slice::<TerminalPushOrder>(&body) {
            Ok(order) => order,
            Err(error) => return failed(StatusCode::BAD_REQUEST, error.to_string()),
        }
    };
    let now = sim.state.clock.now();
    let targets = lock(&sim.state.subscriptions).targets(now);
    let mut pushed = Vec::new();
    for (target, numbers) in targets {
        let body = match order.fault {
            Some(PushFault::Garbled) => b"<html>terminal portal</html>".to_vec(),
            _ => super::terminal::answer(&sim, &target.code, &numbers, now)
                .to_string()
                .into_bytes(),
        };
        let token = match order.fault {
            Some(PushFault::WrongToken) => format!("{}-not", target.token),
            _ => target.token.clone(),
        };
        let answer = send(&target.url, &token, body, None)
            .await
            .unwrap_or_else(|error| json!({"status": null, "error": error}));
        pushed.push(json!({"terminal": target.code, "url": target.url,
                           "containers": numbers.len(), "answer": answer}));
    }
    axum::Json(json!({"pushes": pushed})).into_response()
}

fn failed(status: StatusCode, message: String) -> Response {
    (status, axum::Json(json!({"error": message}))).into_response()
}

pub(super) async fn push_route(
    State(sim): State<Simulator>,
    axum::Json(order): axum::Json<PushOrder>,
) -> Response {
    let scac = order.scac.to_ascii_uppercase();
    let issue = match order.fault {
        Some(PushFault::Stale) => Issue::First,
        _ => Issue::AsOf(sim.state.clock.now()),
    };
    let Some(mut notice) = notice_of(&sim, &scac, &order.bill, issue) else {
        return failed(
            StatusCode::NOT_FOUND,
            format!("{scac} has issued no arrival notice of {} yet", order.bill),
        );
    };
    if let (Some(code), Some(boxes)) = (
        &order.pickup_facility,
        notice["utilizedTransportEquipments"].as_array_mut(),
    ) {
        for utilized in boxes {
            utilized["pickupInformation"]["pickupLocation"]["facility"]["facilityCode"] =
                json!(code);
        }
    }
    let (path, body) = match order.kind {
        Kind::Notices => ("arrival-notices", json!({"arrivalNotices": [notice]})),
        Kind::Notifications => {
            let mut notification = json!({
                "issueDateTime": notice["issueDateTime"],
                "transportDocumentReference": notice["transportDocumentReference"],
            });
            if let Some(label) = notice.get("typeLabel") {
                notification["typeLabel"] = label.clone();
            }
            (
                "arrival-notice-notifications",
                json!({"arrivalNoticeNotifications": [notification]}),
            )
        }
    };
    let body = match order.fault {
        Some(PushFault::Garbled) => b"<html>arrival notices</html>".to_vec(),
        _ => body.to_string().into_bytes(),
    };
    let token = match order.fault {
        Some(PushFault::WrongToken) => format!("{}-not", order.token),
        _ => order.token,
    };
    let url = format!("{}/{path}", order.subscriber.trim_end_matches('/'));
    match send(&url, &token, body, Some("1.0.1")).await {
        Ok(answer) => axum::Json(answer).into_response(),
        Err(error) => failed(StatusCode::BAD_GATEWAY, error),
    }
}
