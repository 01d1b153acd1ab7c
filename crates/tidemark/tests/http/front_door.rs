//! `/`: a browser is sent to the console, an API client gets a document that points at
//! the API and its reference.

use reqwest::redirect::Policy;
use serde_json::Value;
use tidemark_store::testing::Backend;

use crate::common::TestApp;

#[tokio::test]
async fn a_browser_at_the_root_reaches_the_console_and_a_client_the_api() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let browser_accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    let not_following = reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .expect("client");
    let redirect = not_following
        .get(format!("{}/", app.base))
        .header("Accept", browser_accept)
        .send()
        .await
        .expect("request");
    assert_eq!(redirect.status(), 303);
    assert_eq!(redirect.headers()["location"], "/console");
    // Followed, it ends at the console's sign-in page.
    let page = app
        .request(reqwest::Method::GET, "/", None)
        .header("Accept", browser_accept)
        .send()
        .await
        .expect("request");
    assert_eq!(page.status(), 200);
    assert!(page.url().path().starts_with("/console"), "{}", page.url());
    assert!(page.text().await.expect("page").contains("<html"));

    for (path, accept) in [
        ("/", None),
        ("/", Some("application/vnd.api+json")),
        ("/v2", Some("application/json")),
    ] {
        let mut request = app.request(reqwest::Method::GET, path, None);
        if let Some(accept) = accept {
            request = request.header("Accept", accept);
        }
        let answer = request.send().await.expect("request");
        assert_eq!(answer.status(), 200, "{path} {accept:?}");
        // A client that asks for plain JSON gets the same document as plain JSON.
        let expected = match accept {
            Some("application/json") => "application/json",
            _ => "application/vnd.api+json",
        };
        assert_eq!(answer.headers()["content-type"], expected, "{path}");
        let document: Value = answer.json().await.expect("json");
        assert_eq!(document["links"]["api"], app.link("/v2"));
        assert_eq!(document["links"]["docs"], app.link("/docs"));
        assert_eq!(
            document["links"]["describedby"],
            app.link("/v2/openapi.json")
        );
        assert_eq!(document["meta"]["name"], "Tidemark");
    }
}
