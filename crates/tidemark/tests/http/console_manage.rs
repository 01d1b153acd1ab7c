//! Webhooks and API keys managed from the console, by the API's own rules: a webhook made,
//! refused for a private address (nothing made), changed, paused, resumed and deleted, each
//! seen through the API; a key made (its secret shown once, then working), listed without
//! its secret, its use recorded, and revoked (then refused); another account's key is not
//! there to revoke.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::http::header::LOCATION;
use serde_json::Value;

use crate::common::{TestApp, document, with_app};
use crate::console::{csrf, post_form};
use crate::console_truth::page;

tidemark_store::backends!(
    with_app,
    a_webhook_is_made_changed_paused_and_deleted_from_the_console,
    a_key_is_made_shown_once_used_and_revoked_from_the_console,
);

/// The account's webhooks, as the API lists them.
async fn webhooks(t: &TestApp) -> Vec<Value> {
    document(t.get("/v2/webhooks").await).await["data"]
        .as_array()
        .expect("a list")
        .clone()
}

async fn a_webhook_is_made_changed_paused_and_deleted_from_the_console(t: TestApp) {
    {
        let token = csrf(&t, &t.key).await;
        let private = post_form(
            &t,
            "/console/webhooks",
            &t.key,
            &[
                ("csrf", &token),
                ("url", "http://127.0.0.1/hook"),
                ("headers", ""),
            ],
        )
        .await;
        assert_eq!(private.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let said = private.text().await.expect("a page");
        assert!(said.contains("url:"), "{said}");
        assert!(said.contains("127.0.0.1/hook"), "what was typed is kept");
        assert!(webhooks(&t).await.is_empty(), "nothing made");

        let bad_header = post_form(
            &t,
            "/console/webhooks",
            &t.key,
            &[
                ("csrf", &token),
                ("url", "https://hooks.example.com/a"),
                ("headers", "no colon"),
            ],
        )
        .await;
        assert_eq!(bad_header.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert!(webhooks(&t).await.is_empty());

        let made = post_form(
            &t,
            "/console/webhooks",
            &t.key,
            &[
                ("csrf", &token),
                ("url", "https://hooks.example.com/tidemark"),
                ("events", "container.updated"),
                ("events", "tracking_request.failed"),
                ("headers", "X-Team: ops"),
            ],
        )
        .await;
        assert_eq!(made.status(), StatusCode::OK);
        let shown = made.text().await.expect("a page");
        assert!(shown.contains("signing secret"), "{shown}");
        let listed = webhooks(&t).await;
        assert_eq!(listed.len(), 1);
        let id = listed[0]["id"].as_str().expect("an id").to_owned();
        let attributes = &listed[0]["attributes"];
        assert_eq!(attributes["url"], "https://hooks.example.com/tidemark");
        assert_eq!(attributes["events"].as_array().map(Vec::len), Some(2));

        changed_paused_and_deleted(&t, &token, &id).await;
    }
}

async fn changed_paused_and_deleted(t: &TestApp, token: &str, id: &str) {
    let edit = format!("/console/webhooks/{id}/edit");
    let changed = post_form(
        t,
        &edit,
        &t.key,
        &[
            ("csrf", token),
            ("url", "https://hooks.example.com/moved"),
            ("events", "container.updated"),
            ("headers", ""),
        ],
    )
    .await;
    assert_eq!(changed.status(), StatusCode::SEE_OTHER);
    let attributes = webhooks(t).await[0]["attributes"].clone();
    assert_eq!(attributes["url"], "https://hooks.example.com/moved");
    assert_eq!(
        attributes["events"],
        serde_json::json!(["container.updated"])
    );
    let refused = post_form(
        t,
        &edit,
        &t.key,
        &[
            ("csrf", token),
            ("url", "http://10.0.0.1/"),
            ("headers", ""),
        ],
    )
    .await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        webhooks(t).await[0]["attributes"]["url"],
        "https://hooks.example.com/moved"
    );

    for (action, active) in [("pause", false), ("resume", true)] {
        let path = format!("/console/webhooks/{id}/{action}");
        let done = post_form(t, &path, &t.key, &[("csrf", token)]).await;
        assert_eq!(done.status(), StatusCode::SEE_OTHER, "{action}");
        assert_eq!(
            webhooks(t).await[0]["attributes"]["active"],
            active,
            "{action}"
        );
    }
    let page = page(t, &format!("/console/webhooks/{id}?resumed=1")).await;
    assert!(page.contains("Pause deliveries"), "{page}");

    let gone = post_form(
        t,
        &format!("/console/webhooks/{id}/delete"),
        &t.key,
        &[("csrf", token), ("confirm", "on")],
    )
    .await;
    assert_eq!(gone.status(), StatusCode::SEE_OTHER);
    assert_eq!(gone.headers()[LOCATION], "/console/webhooks?deleted=1");
    assert!(webhooks(t).await.is_empty());
    let forged = post_form(
        t,
        "/console/webhooks",
        &t.key,
        &[("csrf", "0"), ("url", "https://hooks.example.com/x")],
    )
    .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
}

/// The secret a key page shows once.
fn secret(page: &str) -> String {
    let start = page
        .find("<code class=\"secret\">")
        .expect("a secret shown")
        + 21;
    let end = page[start..].find('<').expect("its end");
    page[start..start + end].to_owned()
}

async fn a_key_is_made_shown_once_used_and_revoked_from_the_console(t: TestApp) {
    {
        let listed = page(&t, "/console/keys").await;
        assert!(listed.contains("this session"), "{listed}");
        assert!(!listed.contains(&t.key), "never a secret");
        let token = csrf(&t, &t.key).await;

        let blank = post_form(
            &t,
            "/console/keys",
            &t.key,
            &[("csrf", &token), ("name", "  ")],
        )
        .await;
        assert_eq!(blank.status(), StatusCode::UNPROCESSABLE_ENTITY);

        let made = post_form(
            &t,
            "/console/keys",
            &t.key,
            &[("csrf", &token), ("name", "Broker feed")],
        )
        .await;
        assert_eq!(made.status(), StatusCode::OK);
        let key = secret(&made.text().await.expect("a page"));
        assert_eq!(t.get_as(&key, "/v2/tracking_requests").await.status(), 200);
        let listed = page(&t, "/console/keys").await;
        assert!(listed.contains("Broker feed"));
        assert!(!listed.contains(&key), "shown once only");
        let prefix: String = key.chars().take_while(|c| *c != '_').collect();
        assert!(!prefix.is_empty());

        // Its use is recorded (to the hour): the row no longer says it was never used.
        let row = |listed: &str| {
            let start = listed.find("Broker feed").expect("its row");
            listed[start..start + listed[start..].find("</tr>").expect("row end")].to_owned()
        };
        assert!(!row(&listed).contains("—"), "{}", row(&listed));

        let (_, other_key) = t.new_account("other").await;
        let other = page_as(&t, &other_key).await;
        assert!(
            !other.contains("Broker feed"),
            "another account's key listed"
        );

        let record = t.store.list_api_keys(None).await.expect("keys");
        let made_prefix = record
            .iter()
            .find(|k| k.name.as_deref() == Some("Broker feed"))
            .expect("the key")
            .prefix
            .clone();
        let theirs = post_form(
            &t,
            &format!("/console/keys/{made_prefix}/revoke"),
            &other_key,
            &[("csrf", &csrf(&t, &other_key).await), ("confirm", "on")],
        )
        .await;
        assert_eq!(
            theirs.status(),
            StatusCode::NOT_FOUND,
            "not theirs to revoke"
        );

        let revoked = post_form(
            &t,
            &format!("/console/keys/{made_prefix}/revoke"),
            &t.key,
            &[("csrf", &token), ("confirm", "on")],
        )
        .await;
        assert_eq!(revoked.status(), StatusCode::SEE_OTHER);
        let deadline = Instant::now() + Duration::from_secs(10);
        while t.get_as(&key, "/v2/tracking_requests").await.status() != 401 {
            assert!(Instant::now() < deadline, "the revoked key still works");
            tokio::task::yield_now().await;
        }
        assert_eq!(
            t.get("/v2/tracking_requests").await.status(),
            200,
            "the session's key works"
        );
    }
}

async fn page_as(t: &TestApp, key: &str) -> String {
    crate::console::get(t, "/console/keys", Some(key))
        .await
        .text()
        .await
        .expect("a page")
}
