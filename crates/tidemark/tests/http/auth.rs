//! Authentication and account scoping (api.md §1 "Authentication").

use reqwest::Method;
use serde_json::json;
use tidemark_domain::{Clock, SystemClock};

use crate::common::{TestApp, codes, document, errors, tracking_request};

use crate::common::with_app;

tidemark_store::backends!(
    with_app,
    a_missing_key_is_401_with_a_challenge,
    malformed_unknown_and_wrong_keys_are_401,
    token_and_bearer_schemes_both_work,
    a_revoked_key_stops_working_within_a_second,
    another_account_never_sees_a_request,
    health_and_the_openapi_document_need_no_key,
);

async fn a_missing_key_is_401_with_a_challenge(app: TestApp) {
    let response = app
        .request(Method::GET, "/v2/tracking_requests", None)
        .send()
        .await
        .expect("request");
    assert_eq!(response.headers()["www-authenticate"], "Token");
    let errors = errors(response, 401).await;
    assert_eq!(
        codes(&errors),
        [("unauthorized".to_owned(), "Authorization".to_owned())]
    );
}

async fn malformed_unknown_and_wrong_keys_are_401(app: TestApp) {
    let mut unknown = app.key.clone();
    unknown.replace_range(4..12, "AAAAAAAA");
    let mut wrong_secret = app.key.clone();
    let last = if wrong_secret.ends_with('x') {
        "y"
    } else {
        "x"
    };
    wrong_secret.replace_range(wrong_secret.len() - 1.., last);
    for value in [
        "Token".to_owned(),
        "Basic dXNlcjpwYXNz".to_owned(),
        "Token short".to_owned(),
        format!("Token {unknown}"),
        format!("Token {wrong_secret}"),
        format!("Token {}", "é".repeat(40)),
    ] {
        let response = app
            .request(Method::GET, "/v2/tracking_requests", None)
            .header("Authorization", value.clone())
            .send()
            .await
            .expect("request");
        errors(response, 401).await;
    }
}

async fn token_and_bearer_schemes_both_work(app: TestApp) {
    for scheme in ["Token", "Bearer", "token"] {
        let response = app
            .request(Method::GET, "/v2/tracking_requests", None)
            .header("Authorization", format!("{scheme} {}", app.key))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 200, "{scheme}");
    }
}

/// Keys once verified are kept by the process; a revocation reaches it through the
/// database's key counter within a second.
async fn a_revoked_key_stops_working_within_a_second(app: TestApp) {
    assert_eq!(app.get("/v2/tracking_requests").await.status(), 200);
    app.store
        .revoke_api_key(&app.key[..12], SystemClock.now())
        .await
        .expect("revoke")
        .expect("found");
    let revoked = std::time::Instant::now();
    tidemark_testkit::poll_until(
        revoked,
        std::time::Duration::from_secs(1),
        || "still accepted a second after its revocation".into(),
        || async {
            let status = app.get("/v2/tracking_requests").await.status();
            assert!(status == 200 || status == 401, "{status}");
            status == 401
        },
    )
    .await;
    errors(app.get("/v2/tracking_requests").await, 401).await;
}

async fn another_account_never_sees_a_request(app: TestApp) {
    let response = app
        .create(&tracking_request("bill_of_lading", "MEDU1234567", "MSCU"))
        .await;
    let created = document(response).await;
    let id = created["data"]["id"].as_str().expect("id");
    let (_, other) = app.new_account("globex").await;
    let path = format!("/v2/tracking_requests/{id}");
    errors(app.get_as(&other, &path).await, 404).await;
    errors(
        app.get_as(&other, &format!("/v2/tracking_request/{id}"))
            .await,
        404,
    )
    .await;
    let list = document(app.get_as(&other, "/v2/tracking_requests").await).await;
    assert_eq!(list["data"], json!([]));
    assert_eq!(list["meta"]["total"], 0);
    let patch = app
        .request(Method::PATCH, &path, Some(&other))
        .header("Content-Type", "application/vnd.api+json")
        .body(
            json!({"data": {"type": "tracking_request", "attributes": {"ref_numbers": ["x"]}}})
                .to_string(),
        )
        .send()
        .await
        .expect("request");
    errors(patch, 404).await;
    // The other account may track the same number itself.
    let own = app
        .post_json(
            "/v2/tracking_requests",
            &other,
            &tracking_request("bill_of_lading", "MEDU1234567", "MSCU"),
        )
        .await;
    assert_eq!(own.status(), 201);
}

async fn health_and_the_openapi_document_need_no_key(app: TestApp) {
    for path in ["/healthz", "/readyz", "/v2/openapi.json"] {
        let response = app
            .request(Method::GET, path, None)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 200, "{path}");
    }
}
