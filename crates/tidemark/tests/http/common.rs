//! What the HTTP tests share: the application ([`TestApp`], built as `serve` builds it, from
//! the test kit) and readers of its JSON:API answers.

use reqwest::Response;
use serde_json::{Value, json};
use tidemark_store::testing::Backend;

pub use tidemark_testkit::{JSON_API, SIM_ADMIN_KEY, TestApp};

/// A create body.
pub fn tracking_request(kind: &str, number: &str, scac: &str) -> Value {
    json!({"data": {"type": "tracking_request", "attributes": {
        "request_type": kind, "request_number": number, "scac": scac}}})
}

/// The body as JSON, after checking the JSON:API media type.
pub async fn document(response: Response) -> Value {
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let text = response.text().await.expect("body");
    assert_eq!(content_type, JSON_API, "content type of {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Asserts a JSON:API error answer and returns its error objects.
pub async fn errors(response: Response, status: u16) -> Vec<Value> {
    assert_eq!(response.status().as_u16(), status, "status");
    let body = document(response).await;
    let errors = body["errors"].as_array().cloned().unwrap_or_default();
    assert!(!errors.is_empty(), "no errors in {body}");
    for error in &errors {
        assert_eq!(error["status"], status.to_string(), "{error}");
        for member in ["title", "detail", "code"] {
            assert!(
                error[member].as_str().is_some_and(|s| !s.is_empty()),
                "{member} missing in {error}"
            );
        }
    }
    errors
}

/// `(code, pointer)` of each error.
pub fn codes(errors: &[Value]) -> Vec<(String, String)> {
    errors
        .iter()
        .map(|e| {
            let source = &e["source"];
            let at = source["pointer"]
                .as_str()
                .or(source["parameter"].as_str())
                .or(source["header"].as_str());
            (
                e["code"].as_str().unwrap_or_default().to_owned(),
                at.unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

pub mod relay;

/// Runs `case` with a fresh app on `backend` that sends webhooks to loopback receivers
/// (`tidemark_testkit::Receiver`), and knows every carrier.
pub async fn with_receivers<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let app = TestApp::build(backend)
        .config(|config| config.webhook_allowed_networks = "127.0.0.0/8".to_owned())
        .spawn()
        .await;
    case(app).await;
}

/// Runs `case` with a fresh app on `backend`.
pub async fn with_app<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    case(TestApp::spawn(backend).await).await;
}

/// Runs `case` with a fresh app on `backend` whose clock is the simulated world's, which
/// the test moves before it drains the tracker's queue.
pub async fn with_tracking<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    case(TestApp::tracking(backend).await).await;
}
