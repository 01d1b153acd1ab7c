//! The web console over HTTP: signing in, the session cookie, forms refused without the
//! page's token, pages scoped to the key's account, and the create form's suggestion.
//! (The console in a real browser is `tests/browser.rs`.)

use std::time::{Duration, Instant};

use reqwest::header::{CONTENT_TYPE, COOKIE, LOCATION, SET_COOKIE};
use reqwest::{Client, Response, StatusCode};
use serde_json::{Value, json};
use tidemark_domain::Clock;
use tidemark_domain::SystemClock;
use tidemark_store::testing::Backend;

use crate::common::{TestApp, document};

/// A client that shows redirects instead of following them.
fn browser() -> Client {
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

fn session(key: &str) -> String {
    format!("tidemark_session={key}")
}

pub(crate) async fn get(app: &TestApp, path: &str, key: Option<&str>) -> Response {
    let mut request = browser().get(format!("{}{path}", app.base));
    if let Some(key) = key {
        request = request.header(COOKIE, session(key));
    }
    request.send().await.expect("request")
}

pub(crate) async fn post_form(
    app: &TestApp,
    path: &str,
    key: &str,
    form: &[(&str, &str)],
) -> Response {
    browser()
        .post(format!("{}{path}", app.base))
        .header(COOKIE, session(key))
        .form(form)
        .send()
        .await
        .expect("request")
}

/// The CSRF token the console's pages put in their forms for `key`.
pub(crate) async fn csrf(app: &TestApp, key: &str) -> String {
    let page = get(app, "/console", Some(key))
        .await
        .text()
        .await
        .expect("page");
    let start = page.find("name=\"csrf\" value=\"").expect("a form token") + 19;
    page[start..start + 64].to_owned()
}

async fn requests_total(app: &TestApp) -> u64 {
    document(app.get("/v2/tracking_requests").await).await["meta"]["total"]
        .as_u64()
        .expect("total")
}

#[tokio::test]
async fn signing_in_keeps_the_key_in_a_strict_http_only_session_cookie() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let away = get(&app, "/console/requests", None).await;
    assert_eq!(away.status(), StatusCode::SEE_OTHER);
    assert_eq!(away.headers()[LOCATION], "/console/sign-in");

    let form = browser().post(format!("{}/console/sign-in", app.base));
    let refused = form
        .form(&[("key", "tdm_notakeynotakeynotakeynotakeynotakeynotake")])
        .send()
        .await
        .expect("request");
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    assert!(refused.headers().get(SET_COOKIE).is_none());

    let signed_in = browser()
        .post(format!("{}/console/sign-in", app.base))
        .form(&[("key", app.key.as_str())])
        .send()
        .await
        .expect("request");
    assert_eq!(signed_in.status(), StatusCode::SEE_OTHER);
    assert_eq!(signed_in.headers()[LOCATION], "/console");
    let cookie = signed_in.headers()[SET_COOKIE].to_str().expect("text");
    let attributes: Vec<&str> = cookie.split(';').map(str::trim).collect();
    assert_eq!(attributes[0], session(&app.key));
    for wanted in ["HttpOnly", "SameSite=Strict", "Path=/console"] {
        assert!(attributes.contains(&wanted), "{cookie}");
    }
    assert!(
        !cookie.contains("Expires") && !cookie.contains("Max-Age"),
        "a session cookie: {cookie}"
    );

    let overview = get(&app, "/console", Some(&app.key)).await;
    assert_eq!(overview.status(), StatusCode::OK);
    assert_eq!(overview.headers()[CONTENT_TYPE], "text/html; charset=utf-8");
    let policy = overview.headers()["content-security-policy"]
        .to_str()
        .expect("text");
    assert!(policy.contains("default-src 'self'") && policy.contains("frame-ancestors 'none'"));
    assert_eq!(overview.headers()["cache-control"], "no-store");
}

#[tokio::test]
async fn forms_without_the_page_s_token_or_from_another_site_are_refused() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let create = [
        ("request_number", "TEST-TR-SUCCEEDED"),
        ("request_type", "bill_of_lading"),
        ("scac", "TEST"),
    ];
    let forged = post_form(&app, "/console/requests", &app.key, &create).await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let token = csrf(&app, &app.key).await;
    let (_, other_key) = app.new_account("other").await;
    let others_token = csrf(&app, &other_key).await;
    assert_ne!(token, others_token, "each key has its own token");
    let mut with_other = create.to_vec();
    with_other.push(("csrf", &others_token));
    let stolen = post_form(&app, "/console/requests", &app.key, &with_other).await;
    assert_eq!(stolen.status(), StatusCode::FORBIDDEN);
    let mut with_token = create.to_vec();
    with_token.push(("csrf", &token));
    let cross_site = browser()
        .post(format!("{}/console/requests", app.base))
        .header(COOKIE, session(&app.key))
        .header("Origin", "https://evil.example")
        .form(&with_token)
        .send()
        .await
        .expect("request");
    assert_eq!(cross_site.status(), StatusCode::FORBIDDEN);
    assert_eq!(requests_total(&app).await, 0, "nothing was created");

    let made = post_form(&app, "/console/requests", &app.key, &with_token).await;
    assert_eq!(made.status(), StatusCode::SEE_OTHER);
    let listed = document(app.get("/v2/tracking_requests").await).await;
    let id = listed["data"][0]["id"]
        .as_str()
        .expect("the request the form made");
    assert!(
        made.headers()[LOCATION]
            .to_str()
            .expect("text")
            .ends_with(id),
        "{:?}",
        made.headers()[LOCATION]
    );
    assert_eq!(listed["data"][0]["attributes"]["status"], "pending");
}

#[tokio::test]
async fn the_create_form_refuses_as_the_api_does_and_keeps_what_was_typed() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let token = csrf(&app, &app.key).await;
    let form = |number: &'static str, scac: &'static str| {
        vec![
            ("request_number", number),
            ("request_type", "bill_of_lading"),
            ("scac", scac),
            ("csrf", token.as_str()),
        ]
    };
    let invalid = post_form(&app, "/console/requests", &app.key, &form("ABC123", "ZZ")).await;
    assert_eq!(invalid.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = invalid.text().await.expect("page");
    assert!(page.contains("role=\"alert\""), "{page}");
    assert!(page.contains("value=\"ABC123\""), "the number is kept");

    let first = post_form(
        &app,
        "/console/requests",
        &app.key,
        &form("TEST-TR-SUCCEEDED", "TEST"),
    )
    .await;
    assert_eq!(first.status(), StatusCode::SEE_OTHER);
    let again = post_form(
        &app,
        "/console/requests",
        &app.key,
        &form("TEST-TR-SUCCEEDED", "TEST"),
    )
    .await;
    let api = app
        .create(&crate::common::tracking_request(
            "bill_of_lading",
            "TEST-TR-SUCCEEDED",
            "TEST",
        ))
        .await;
    assert_eq!(
        again.status(),
        api.status(),
        "the duplicate rule's one status"
    );
    assert_eq!(requests_total(&app).await, 1);
}

#[tokio::test]
async fn pages_show_only_the_key_s_account() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, other_key) = app.new_account("other").await;
    let webhook = json!({"data": {"type": "webhook", "attributes": {
        "url": "https://hooks.example.com/tidemark", "active": true}}});
    let made = document(app.post_json("/v2/webhooks", &other_key, &webhook).await).await;
    let id = made["data"]["id"].as_str().expect("id");
    let body = crate::common::tracking_request("bill_of_lading", "TEST-TR-FAILED", "TEST");
    assert_eq!(
        app.post_json("/v2/tracking_requests", &other_key, &body)
            .await
            .status(),
        201
    );

    let theirs = get(&app, &format!("/console/webhooks/{id}"), Some(&other_key)).await;
    assert_eq!(theirs.status(), StatusCode::OK);
    let mine = get(&app, &format!("/console/webhooks/{id}"), Some(&app.key)).await;
    assert_eq!(mine.status(), StatusCode::NOT_FOUND);
    let listed = get(&app, "/console/requests", Some(&app.key))
        .await
        .text()
        .await
        .expect("page");
    assert!(
        !listed.contains("TEST-TR-FAILED"),
        "another account's request shown"
    );
    let listed = get(&app, "/console/requests", Some(&other_key))
        .await
        .text()
        .await
        .expect("page");
    assert!(listed.contains("TEST-TR-FAILED"));
    let hooks = get(&app, "/console/webhooks", Some(&app.key))
        .await
        .text()
        .await
        .expect("page");
    assert!(!hooks.contains("hooks.example.com"));
    let nonsense = get(&app, "/console/shipments/not-an-id", Some(&app.key)).await;
    assert_eq!(nonsense.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_revoked_key_signs_its_sessions_out_within_a_second() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    assert_eq!(
        get(&app, "/console", Some(&app.key)).await.status(),
        StatusCode::OK
    );
    app.store
        .revoke_api_key(&app.key[..12], SystemClock.now())
        .await
        .expect("revoke");
    tidemark_testkit::poll_until(
        Instant::now(),
        Duration::from_secs(1),
        || "still signed in a second after the revocation".into(),
        || async { get(&app, "/console", Some(&app.key)).await.status() == StatusCode::SEE_OTHER },
    )
    .await;
}

#[tokio::test]
async fn the_suggestion_is_infer_number_s_answer() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let suggested: Value = get(&app, "/console/infer?number=MSKU3054388", Some(&app.key))
        .await
        .json()
        .await
        .expect("json");
    let api: Value = app
        .post_json(
            "/v2/tracking_requests/infer_number",
            &app.key,
            &json!({"number": "MSKU3054388"}),
        )
        .await
        .json()
        .await
        .expect("json");
    assert_eq!(suggested, api["data"]["attributes"]);
    assert_eq!(suggested["shipping_line"]["selected"]["scac"], "MAEU");
    assert!(
        suggested.get("sandbox_scac").is_none(),
        "a real line's number"
    );
    let sandbox: Value = get(
        &app,
        "/console/infer?number=TEST-TR-JOURNEY",
        Some(&app.key),
    )
    .await
    .json()
    .await
    .expect("json");
    assert_eq!(
        sandbox["sandbox_scac"], "TEST",
        "a sandbox number suggests the sandbox line"
    );
    let blank = get(&app, "/console/infer?number=%20", Some(&app.key)).await;
    assert_eq!(blank.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let signed_out = get(&app, "/console/infer?number=MSKU3054388", None).await;
    assert_eq!(signed_out.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn assets_are_served_from_the_binary_and_unknown_ones_are_not_found() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let css = get(&app, "/console/assets/console.css", None).await;
    assert_eq!(css.status(), StatusCode::OK);
    assert_eq!(css.headers()[CONTENT_TYPE], "text/css; charset=utf-8");
    let script = get(&app, "/console/assets/console.js", None).await;
    assert!(
        script
            .text()
            .await
            .expect("text")
            .contains("/console/infer")
    );
    let missing = get(&app, "/console/assets/nothing.js", None).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_request_list_pages_keep_the_filter() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for n in 0..26 {
        let number = format!("TEST-PAGE-{n:02}");
        let body = crate::common::tracking_request("bill_of_lading", &number, "TEST");
        assert_eq!(app.create(&body).await.status(), 201);
    }
    let first = get(
        &app,
        "/console/requests?status=pending&q=PAGE",
        Some(&app.key),
    )
    .await;
    let page = first.text().await.expect("page");
    assert!(page.contains("26 found"), "{page}");
    assert!(page.contains("page 1 of 2"));
    assert!(
        page.contains("href=\"/console/requests?status=pending&#38;q=PAGE&#38;page=2\"")
            || page.contains("href=\"/console/requests?status=pending&amp;q=PAGE&amp;page=2\""),
        "{page}"
    );
    let second = get(
        &app,
        "/console/requests?status=pending&q=PAGE&page=2",
        Some(&app.key),
    )
    .await;
    let page = second.text().await.expect("page");
    assert_eq!(page.matches("data-status").count(), 1, "one left on page 2");
}

#[tokio::test]
async fn a_rotation_shows_the_new_secret_once_and_the_api_agrees() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let made = crate::webhook_delivery::subscribed(&app, "https://hooks.example.com/t", json!([]));
    let made = made.await;
    let id = made["data"]["id"].as_str().expect("id");
    let old = made["data"]["attributes"]["secret"]
        .as_str()
        .expect("secret");
    let path = format!("/console/webhooks/{id}/rotate");
    let forged = post_form(&app, &path, &app.key, &[]).await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);

    let token = csrf(&app, &app.key).await;
    let page = post_form(&app, &path, &app.key, &[("csrf", &token)]).await;
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.expect("page");
    let read = document(app.get(&format!("/v2/webhooks/{id}")).await).await;
    let new = read["data"]["attributes"]["secret"]
        .as_str()
        .expect("secret");
    assert_ne!(new, old);
    assert!(page.contains(&format!("New secret: {new}.")), "{page}");
    assert!(page.contains("The old one signs beside it until"));
    assert!(!page.contains(old), "the old secret is never shown");
    let later = get(&app, &format!("/console/webhooks/{id}"), Some(&app.key)).await;
    let later = later.text().await.expect("page");
    assert!(!later.contains(new), "shown once");
    assert!(
        later.contains("is kept 90 d after its last attempt"),
        "the log's retention"
    );
}
