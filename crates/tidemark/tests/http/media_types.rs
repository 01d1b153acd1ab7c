//! `Accept: application/json` gets the same documents, errors included, as
//! `application/json`; JSON:API stays the default, and a tie is JSON:API's.

use reqwest::Method;
use serde_json::Value;

use crate::common::{JSON_API, TestApp, document, tracking_request, with_app};

tidemark_store::backends!(
    with_app,
    a_client_that_asks_for_plain_json_gets_the_same_documents_as_json,
);

/// `method path` with `Accept: accept` (and `body`, as `application/json`).
async fn asked(
    app: &TestApp,
    (method, path): (Method, &str),
    accept: &str,
    body: Option<&Value>,
) -> reqwest::Response {
    let mut request = app
        .request(method, path, Some(&app.key))
        .header("Accept", accept);
    if let Some(body) = body {
        request = request
            .header("Content-Type", "application/json")
            .body(body.to_string());
    }
    request.send().await.expect("request")
}

/// Its status, its content type, whether it varies with `Accept`, and its body as JSON.
async fn read(response: reqwest::Response) -> (u16, String, bool, Value) {
    let status = response.status().as_u16();
    let header = |name: &str| {
        response
            .headers()
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let content_type = header("content-type");
    let varies = header("vary")
        .split(',')
        .any(|v| v.trim().eq_ignore_ascii_case("accept"));
    let text = response.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, content_type, varies, body)
}

async fn a_client_that_asks_for_plain_json_gets_the_same_documents_as_json(app: TestApp) {
    let body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU");
    let created = read(
        asked(
            &app,
            (Method::POST, "/v2/tracking_requests"),
            "application/json",
            Some(&body),
        )
        .await,
    )
    .await;
    assert_eq!((created.0, created.1.as_str()), (201, "application/json"));
    assert!(created.2, "it varies with Accept");
    let id = created.3["data"]["id"].as_str().expect("an id").to_owned();

    let one = format!("/v2/tracking_requests/{id}");
    let default = document(app.get(&one).await).await;
    for accept in ["application/json", "application/json, */*"] {
        let (status, content_type, varies, plain) =
            read(asked(&app, (Method::GET, &one), accept, None).await).await;
        assert_eq!(
            (status, content_type.as_str()),
            (200, "application/json"),
            "{accept}"
        );
        assert!(varies);
        assert_eq!(plain, default, "the same document");
    }
    for accept in [
        "application/vnd.api+json, application/json",
        "application/json;q=0.5, application/vnd.api+json",
        "*/*",
    ] {
        let (status, content_type, varies, _) =
            read(asked(&app, (Method::GET, &one), accept, None).await).await;
        assert_eq!((status, content_type.as_str()), (200, JSON_API), "{accept}");
        assert!(varies);
    }

    // Errors follow the same rule.
    let missing = "/v2/tracking_requests/00000000-0000-7000-8000-000000000000";
    let (status, content_type, _, error) =
        read(asked(&app, (Method::GET, missing), "application/json", None).await).await;
    assert_eq!((status, content_type.as_str()), (404, "application/json"));
    assert_eq!(error["errors"][0]["status"], "404");
    let refused =
        "application/vnd.api+json; ext=\"https://example.com/x\"; q=0.5, application/json";
    let (status, content_type, _, error) =
        read(asked(&app, (Method::GET, &one), refused, None).await).await;
    assert_eq!((status, content_type.as_str()), (406, "application/json"));
    assert_eq!(error["errors"][0]["code"], "not_acceptable");
}
