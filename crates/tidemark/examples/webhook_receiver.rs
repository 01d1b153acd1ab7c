//! A webhook receiver for trying Tidemark out and for `bench/webhooks.sh`: accepts POSTs on
//! `/hook`, checks the Standard Webhooks signature when given secrets (one must match), answers 204, and
//! keeps, per delivery, when it arrived and how long after its event that was.
//!
//! ```text
//! cargo run --release --example webhook_receiver -- 127.0.0.1:0 [whsec_…[,whsec_…]]
//! ```
//!
//! It prints `listening on http://ADDR`. `GET /stats` answers
//! `{"received", "distinct", "rejected", "first_us", "last_us", "latencies_ms": […]}`
//! (arrival times in Unix microseconds; a latency is arrival minus the notification's
//! `created_at`), and `POST /reset` forgets everything.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use serde_json::{Value, json};
use tidemark_domain::webhook::WebhookSecret;

#[derive(Default)]
struct Seen {
    received: u64,
    rejected: u64,
    ids: HashSet<String>,
    first_us: Option<i128>,
    last_us: Option<i128>,
    latencies_ms: Vec<f64>,
}

#[derive(Clone)]
struct Receiver {
    /// Signatures must match one of these, when any are given.
    secrets: Arc<Vec<WebhookSecret>>,
    seen: Arc<Mutex<Seen>>,
}

fn now_us() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i128::try_from(d.as_micros()).unwrap_or(i128::MAX))
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// Whether `webhook-signature` holds the signature of this id, timestamp and body.
fn signed(secret: &WebhookSecret, headers: &HeaderMap, body: &[u8]) -> bool {
    let id = header(headers, "webhook-id");
    let Ok(timestamp) = header(headers, "webhook-timestamp").parse::<i64>() else {
        return false;
    };
    let expected = secret.standard_signature(id, timestamp, body);
    header(headers, "webhook-signature")
        .split(' ')
        .any(|given| given == expected)
}

async fn hook(State(receiver): State<Receiver>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let arrived = now_us();
    let mut seen = receiver.seen.lock().unwrap_or_else(PoisonError::into_inner);
    if !receiver.secrets.is_empty()
        && !receiver
            .secrets
            .iter()
            .any(|secret| signed(secret, &headers, &body))
    {
        seen.rejected += 1;
        return StatusCode::UNAUTHORIZED;
    }
    seen.received += 1;
    seen.ids.insert(header(&headers, "webhook-id").to_owned());
    seen.first_us = Some(seen.first_us.map_or(arrived, |first| first.min(arrived)));
    seen.last_us = Some(seen.last_us.map_or(arrived, |last| last.max(arrived)));
    let created = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|document| {
            let text = document["data"]["attributes"]["created_at"]
                .as_str()?
                .to_owned();
            time::OffsetDateTime::parse(&text, &time::format_description::well_known::Rfc3339).ok()
        });
    if let Some(created) = created {
        let created_us = created.unix_timestamp_nanos() / 1000;
        #[expect(clippy::cast_precision_loss, reason = "a latency in milliseconds")]
        seen.latencies_ms
            .push((arrived - created_us) as f64 / 1000.0);
    }
    StatusCode::NO_CONTENT
}

async fn stats(State(receiver): State<Receiver>) -> axum::Json<Value> {
    let seen = receiver.seen.lock().unwrap_or_else(PoisonError::into_inner);
    axum::Json(json!({
        "received": seen.received,
        "distinct": seen.ids.len(),
        "rejected": seen.rejected,
        "first_us": seen.first_us,
        "last_us": seen.last_us,
        "latencies_ms": seen.latencies_ms,
    }))
}

async fn reset(State(receiver): State<Receiver>) -> StatusCode {
    *receiver.seen.lock().unwrap_or_else(PoisonError::into_inner) = Seen::default();
    StatusCode::NO_CONTENT
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let listen = args.next().unwrap_or_else(|| "127.0.0.1:0".to_owned());
    let mut secrets = Vec::new();
    for text in args
        .next()
        .unwrap_or_default()
        .split(',')
        .filter(|t| !t.is_empty())
    {
        secrets.push(WebhookSecret::parse(text)?);
    }
    let receiver = Receiver {
        secrets: Arc::new(secrets),
        seen: Arc::default(),
    };
    let app = Router::new()
        .route("/hook", post(hook))
        .route("/stats", get(stats))
        .route("/reset", post(reset))
        .with_state(receiver);
    let listener = tokio::net::TcpListener::bind(&listen).await?;
    #[expect(
        clippy::print_stdout,
        reason = "scripts read the address from standard output"
    )]
    {
        println!("listening on http://{}", listener.local_addr()?);
    }
    axum::serve(listener, app).await?;
    Ok(())
}
