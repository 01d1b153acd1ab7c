//! `POST /v2/webhooks/{id}/rotate_secret` against a real receiver on loopback: after a
//! rotation, deliveries verify with the new secret and, until the grace ends, with the old
//! one too (checked by the independent `standardwebhooks` library); then the new one alone.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::HeaderMap;
use reqwest::Method;
use serde_json::{Value, json};
use tidemark_domain::webhook::WebhookSecret;
use tidemark_domain::{Clock, ManualClock, SystemClock};
use tidemark_store::testing::Backend;
use tidemark_testkit::Receiver;

use crate::common::{TestApp, document, errors};
use crate::webhook_delivery::{id_of, subscribed};

tidemark_store::backends!(
    with_a_short_grace,
    a_rotated_secret_signs_beside_the_new_one_until_its_grace_ends,
    a_rotation_of_a_webhook_that_is_not_there_is_404,
    a_rotation_retried_with_its_key_rotates_once,
);

/// A grace short enough that a delivery after it still carries a timestamp a Standard
/// Webhooks verifier accepts (it allows five minutes either way of its own clock).
const GRACE: Duration = Duration::from_secs(GRACE_SECONDS as u64);
const GRACE_SECONDS: i64 = 60;

async fn with_a_short_grace<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp, Arc<ManualClock>) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let clock = Arc::new(ManualClock::new(SystemClock.now()));
    let shared: Arc<dyn Clock> = clock.clone();
    let app = TestApp::build(backend)
        .config(|config| {
            config.webhook_allowed_networks = "127.0.0.0/8".to_owned();
            config.webhooks.secret_grace = GRACE;
        })
        .clock(shared)
        .spawn()
        .await;
    case(app, clock).await;
}

fn secret_of(webhook: &Value) -> String {
    webhook["data"]["attributes"]["secret"]
        .as_str()
        .expect("secret")
        .to_owned()
}

/// Sends a sample to the webhook through `POST …/test`, as deliveries are sent, and
/// returns what the receiver got.
async fn sample(app: &TestApp, receiver: &Receiver, webhook: &str) -> (HeaderMap, Bytes) {
    let body = json!({"data": {"type": "webhook_test",
        "attributes": {"event": "tracking_request.succeeded"}}});
    let path = format!("/v2/webhooks/{webhook}/test");
    let answered = document(app.post_json(&path, &app.key, &body).await).await;
    assert_eq!(answered["data"]["attributes"]["delivered"], true);
    receiver.got().pop().expect("a delivery")
}

fn verifies(secret: &str, (headers, body): &(HeaderMap, Bytes)) -> bool {
    let verifier = standardwebhooks::Webhook::new(secret).expect("secret");
    verifier.verify(body, headers).is_ok()
}

fn hex_header((headers, _): &(HeaderMap, Bytes)) -> &str {
    headers["x-tidemark-signature"].to_str().expect("text")
}

fn hex_by(secret: &str, (_, body): &(HeaderMap, Bytes)) -> String {
    WebhookSecret::parse(secret)
        .expect("secret")
        .hex_signature(body)
}

async fn a_rotated_secret_signs_beside_the_new_one_until_its_grace_ends(
    app: TestApp,
    clock: Arc<ManualClock>,
) {
    let (receiver, url) = Receiver::answering(&[(204, "")]).await;
    let created = subscribed(&app, &url, json!([])).await;
    let id = id_of(&created);
    let old = secret_of(&created);
    assert!(created["data"]["attributes"]["previous_secret_expires_at"].is_null());

    let path = format!("/v2/webhooks/{id}/rotate_secret");
    let rotated = app.call(Method::POST, &path).await;
    assert_eq!(rotated.status(), 200);
    let rotated = document(rotated).await;
    let new = secret_of(&rotated);
    assert!(new.starts_with("whsec_"));
    assert_ne!(new, old);
    let until = clock.now() + GRACE;
    assert_eq!(
        rotated["data"]["attributes"]["previous_secret_expires_at"],
        until.to_string()
    );
    assert_eq!(
        rotated["data"]["attributes"]["updated_at"],
        clock.now().to_string()
    );
    let read = document(app.get(&format!("/v2/webhooks/{id}")).await).await;
    assert_eq!(read, rotated);

    // During the grace: either secret verifies; the hex header is the old secret's.
    let during = sample(&app, &receiver, &id).await;
    assert!(verifies(&new, &during));
    assert!(verifies(&old, &during));
    assert!(!verifies(WebhookSecret::generate().expose(), &during));
    assert_eq!(hex_header(&during), hex_by(&old, &during));

    // After it: the new secret alone.
    clock.advance(time::Duration::seconds(GRACE_SECONDS));
    let after = sample(&app, &receiver, &id).await;
    assert!(verifies(&new, &after));
    assert!(!verifies(&old, &after));
    assert_eq!(hex_header(&after), hex_by(&new, &after));

    // A second rotation: the first new secret is now the one in its grace.
    let again = document(app.call(Method::POST, &path).await).await;
    let newest = secret_of(&again);
    let both = sample(&app, &receiver, &id).await;
    assert!(verifies(&newest, &both));
    assert!(verifies(&new, &both));
    assert!(!verifies(&old, &both));
}

async fn a_rotation_of_a_webhook_that_is_not_there_is_404(app: TestApp, _: Arc<ManualClock>) {
    for id in ["01a2b3c4-0000-7000-8000-000000000000", "not-an-id"] {
        let answer = app
            .call(Method::POST, &format!("/v2/webhooks/{id}/rotate_secret"))
            .await;
        let found = errors(answer, 404).await;
        assert_eq!(found[0]["code"], "not_found", "{id}");
    }
    let answer = app
        .call(
            Method::POST,
            "/v2/webhooks/01a2b3c4-0000-7000-8000-000000000000/rotate_secret?page[size]=1",
        )
        .await;
    let refused = errors(answer, 400).await;
    assert_eq!(refused[0]["source"]["parameter"], "page[size]");
}

async fn a_rotation_retried_with_its_key_rotates_once(app: TestApp, _: Arc<ManualClock>) {
    let created = subscribed(&app, "https://hooks.example.com/t", json!([])).await;
    let path = format!("/v2/webhooks/{}/rotate_secret", id_of(&created));
    let rotate = || {
        app.request(Method::POST, &path, Some(&app.key))
            .header("Idempotency-Key", "rotate-1")
            .send()
    };
    let first = rotate().await.expect("request");
    assert!(first.headers().get("idempotent-replayed").is_none());
    let first = secret_of(&document(first).await);
    let retried = rotate().await.expect("request");
    assert_eq!(retried.headers()["idempotent-replayed"], "true");
    assert_eq!(secret_of(&document(retried).await), first);
    let read = document(app.get(&format!("/v2/webhooks/{}", id_of(&created))).await).await;
    assert_eq!(secret_of(&read), first, "rotated once");
    let until = &read["data"]["attributes"]["previous_secret_expires_at"];
    assert!(
        until.is_string(),
        "the first secret signs during the grace: {until}"
    );
}
