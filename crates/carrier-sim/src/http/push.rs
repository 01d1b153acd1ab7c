//! `POST /admin/arrival-notice-pushes`: the line pushes a bill's Arrival Notice, or the
//! notification that it is out, to a subscriber (DCSA AN 1.0.1: the subscriber's
//! `POST {subscriber}/arrival-notices` and `POST {subscriber}/arrival-notice-notifications`),
//! with `Authorization: Bearer {token}`, and answers with what the subscriber said. Faults:
//! `stale` pushes the notice's first version (an old one, replayed late), `garbled` a body
//! that is not JSON, `wrong_token` another token.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::notices::{Issue, notice_of};
use crate::Simulator;

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
    let Some(notice) = notice_of(&sim, &scac, &order.bill, issue) else {
        return failed(
            StatusCode::NOT_FOUND,
            format!("{scac} has issued no arrival notice of {} yet", order.bill),
        );
    };
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
    let sent = reqwest::Client::new()
        .post(&url)
        .timeout(Duration::from_secs(30))
        .bearer_auth(token)
        .header("Content-Type", "application/json")
        .header("API-Version", "1.0.1")
        .body(body)
        .send()
        .await;
    let response = match sent {
        Ok(response) => response,
        Err(error) => return failed(StatusCode::BAD_GATEWAY, format!("{url}: {error}")),
    };
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    let answer = serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text));
    axum::Json(json!({"status": status, "body": answer})).into_response()
}
