//! `POST /v2/webhooks/trigger` (compat-api.md §4.1) against a real receiver on loopback: a
//! signed sample sent to a URL that is no webhook, and the whole exchange answered in the
//! reference API's plain JSON; nothing stored.

use hmac::{Hmac, KeyInit, Mac};
use reqwest::Method;
use serde_json::{Value, json};
use sha2::Sha256;
use tidemark_domain::webhook::{MAX_CHOSEN_SECRET, WebhookSecret};
use tidemark_testkit::Receiver;

use crate::common::{TestApp, codes, document, errors, with_receivers};

tidemark_store::backends!(
    with_receivers,
    a_trigger_sends_a_signed_sample_and_shows_the_exchange,
);

/// Posts `body` as plain JSON, as the reference's clients do.
async fn trigger(app: &TestApp, body: &str) -> reqwest::Response {
    app.request(Method::POST, "/v2/webhooks/trigger", Some(&app.key))
        .header("Content-Type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .expect("request")
}

async fn a_trigger_sends_a_signed_sample_and_shows_the_exchange(app: TestApp) {
    let (receiver, url) = Receiver::answering(&[(202, "thanks"), (500, "down")]).await;
    let secret = WebhookSecret::generate();
    let ask = json!({"url": url, "event": "container.transport.vessel_departed",
        "secret": secret.expose()});

    let response = trigger(&app, &ask.to_string()).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"].to_str().ok(),
        Some("application/json"),
        "plain JSON, as the reference answers"
    );
    let shown: Value = response.json().await.expect("json");
    assert_eq!(shown["url"], url.as_str());
    assert_eq!(shown["succeeded"], true);
    assert_eq!(shown["status_code"], 202);
    assert_eq!(shown["response_body"], "thanks");
    assert!(shown["error"].is_null());
    assert_eq!(shown["event"], "container.transport.vessel_departed");
    assert!(
        shown["response_headers"]["content-length"].is_string(),
        "{shown}"
    );

    arrived_as_shown(&receiver, &shown, &secret);

    // Without a secret it is signed with a new one; a receiver's failure is reported.
    let ask = json!({"url": url, "event": "tracking_request.succeeded"});
    let shown: Value = trigger(&app, &ask.to_string())
        .await
        .json()
        .await
        .expect("json");
    assert_eq!(shown["succeeded"], false);
    assert_eq!(shown["status_code"], 500);
    assert_eq!(shown["response_body"], "down");
    let got = receiver.got();
    let (headers, body) = &got[1];
    assert!(headers.contains_key("webhook-signature"));
    assert!(
        standardwebhooks::Webhook::new(secret.expose())
            .expect("secret")
            .verify(body, headers)
            .is_err(),
        "not the earlier secret"
    );

    // Nothing is stored: no webhook, no notification.
    for path in ["/v2/webhooks", "/v2/webhook_notifications"] {
        assert_eq!(
            document(app.get(path).await).await["meta"]["total"],
            0,
            "{path}"
        );
    }

    // Any text is a secret, as the reference takes it: the hex signature is keyed with it.
    // A fragment in the URL is accepted and not sent (the receiver answers only `/hook`).
    let ask = json!({"url": format!("{url}#!/inbox"), "event": "tracking_request.succeeded",
        "secret": "hunter2"});
    let shown: Value = trigger(&app, &ask.to_string())
        .await
        .json()
        .await
        .expect("json");
    assert_eq!(shown["succeeded"], true, "{shown}");
    assert_eq!(shown["url"], format!("{url}#!/inbox"));
    let got = receiver.got();
    let (headers, body) = &got[2];
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(b"hunter2").expect("a key");
    mac.update(body);
    assert_eq!(
        headers
            .get("x-tidemark-signature")
            .and_then(|v| v.to_str().ok()),
        Some(hex::encode(mac.finalize().into_bytes()).as_str())
    );

    bad_asks_are_refused(&app, &url).await;
    assert_eq!(receiver.got().len(), 3, "nothing sent for a bad ask");
}

/// What arrived is what the answer says was sent, signed as deliveries are.
fn arrived_as_shown(receiver: &Receiver, shown: &Value, secret: &WebhookSecret) {
    let got = receiver.got();
    assert_eq!(got.len(), 1);
    let (headers, body) = &got[0];
    assert_eq!(
        shown["request_body"].as_str(),
        std::str::from_utf8(body).ok()
    );
    for name in [
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
        "content-type",
    ] {
        assert_eq!(
            shown["request_headers"][name].as_str(),
            headers.get(name).and_then(|v| v.to_str().ok()),
            "{name}"
        );
    }
    standardwebhooks::Webhook::new(secret.expose())
        .expect("secret")
        .verify(body, headers)
        .expect("signed with the secret given");
    let sent: Value = serde_json::from_slice(body).expect("json");
    assert_eq!(sent["data"]["type"], "webhook_notification");
    assert_eq!(
        sent["data"]["attributes"]["event"],
        "container.transport.vessel_departed"
    );
}

async fn bad_asks_are_refused(app: &TestApp, url: &str) {
    let event = "tracking_request.succeeded";
    for (ask, code, pointer) in [
        (json!({"event": event}), "blank", "/url"),
        (json!({"url": url}), "blank", "/event"),
        (json!({"url": 7, "event": event}), "invalid", "/url"),
        (json!({"url": "", "event": event}), "blank", "/url"),
        (
            json!({"url": "http://10.1.2.3/hook", "event": event}),
            "invalid",
            "/url",
        ),
        (
            json!({"url": url, "event": "container.teleported"}),
            "invalid",
            "/event",
        ),
        (
            json!({"url": url, "event": event, "secret": "x".repeat(MAX_CHOSEN_SECRET + 1)}),
            "too_long",
            "/secret",
        ),
        (
            json!({"url": url, "event": event, "secret": 7}),
            "invalid",
            "/secret",
        ),
        (
            json!({"url": url, "event": event, "active": true}),
            "invalid",
            "/active",
        ),
        (
            json!({"url": url, "event": event, "a/b~c": 1}),
            "invalid",
            "/a~1b~0c",
        ),
    ] {
        let found = codes(&errors(trigger(app, &ask.to_string()).await, 422).await);
        assert!(
            found.contains(&(code.to_owned(), pointer.to_owned())),
            "{ask}: {found:?}"
        );
    }
    let malformed = errors(trigger(app, "[1, 2]").await, 400).await;
    assert_eq!(codes(&malformed)[0].0, "malformed_json");
}
