//! The console's errors are its own HTML pages, never the plain text axum's extractors
//! answer with: a path segment that is not text, an oversized form, a form that stalls, a
//! list parameter given twice.

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, COOKIE};
use tidemark_store::testing::Backend;

use crate::common::TestApp;

async fn app() -> TestApp {
    TestApp::spawn(Backend::Sqlite).await
}

/// `GET path` with the app's key in the session cookie.
pub(crate) async fn signed_in_get(app: &TestApp, path: &str) -> reqwest::Response {
    reqwest::Client::new()
        .get(format!("{}{path}", app.base))
        .header(COOKIE, format!("tidemark_session={}", app.key))
        .send()
        .await
        .expect("request")
}

/// Asserts `response` is the console's HTML error page with `status`.
pub(crate) async fn html_page(response: reqwest::Response, status: StatusCode) -> String {
    assert_eq!(response.status(), status);
    let kind = response.headers()[CONTENT_TYPE]
        .to_str()
        .expect("text")
        .to_owned();
    assert!(kind.starts_with("text/html"), "{kind}");
    let page = response.text().await.expect("a page");
    assert!(page.starts_with("<!doctype html>"), "{page}");
    page
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_path_segment_that_is_not_text_is_an_html_404() {
    let app = app().await;
    for path in [
        "/console/shipments/%ff",
        "/console/containers/%C3%28",
        "/console/webhooks/%ff",
    ] {
        let response = signed_in_get(&app, path).await;
        html_page(response, StatusCode::NOT_FOUND).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_form_is_an_html_413() {
    let app = app().await;
    // Over the limit, and within what is read and discarded before the answer.
    let huge = format!("key={}", "a".repeat(900 * 1024));
    let response = reqwest::Client::new()
        .post(format!("{}/console/sign-in", app.base))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(huge)
        .send()
        .await
        .expect("request");
    let page = html_page(response, StatusCode::PAYLOAD_TOO_LARGE).await;
    assert!(page.contains("larger than"), "{page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_list_parameter_is_an_html_400() {
    let app = app().await;
    for path in [
        "/console/requests?page[number]=1&page[number]=2",
        "/console/shipments?page[size]=1&page[size]=2",
        "/console/containers?filter[x]=1&filter[x]=2",
    ] {
        let response = signed_in_get(&app, path).await;
        let page = html_page(response, StatusCode::BAD_REQUEST).await;
        assert!(page.contains("more than once"), "{page}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_s_address_opened_in_the_browser_is_an_html_405() {
    let app = app().await;
    let response = signed_in_get(&app, "/console/keys/tdm_x/revoke").await;
    let allow = response.headers()["allow"]
        .to_str()
        .expect("text")
        .to_owned();
    assert_eq!(allow, "POST");
    let page = html_page(response, StatusCode::METHOD_NOT_ALLOWED).await;
    assert!(page.contains("takes a form sent from its page"), "{page}");
    let api = app.get("/v2/tracking_requests/infer_number").await;
    assert_eq!(
        api.status(),
        StatusCode::METHOD_NOT_ALLOWED,
        "the API's stays JSON:API"
    );
    let kind = api.headers()["content-type"]
        .to_str()
        .expect("text")
        .to_owned();
    assert!(kind.starts_with("application/vnd.api+json"), "{kind}");
}
