//! Every error is a JSON:API error with the right status and code, and bad input never
//! causes a 500 (api.md §1 "Errors").

use reqwest::Method;
use serde_json::{Value, json};
use tidemark_domain::TrackingRequestId;

use crate::common::{JSON_API, TestApp, codes, errors, tracking_request};

use crate::common::with_app;

tidemark_store::backends!(
    with_app,
    malformed_json_is_400,
    a_body_that_is_not_a_document_is_400,
    query_parameter_problems_are_400_with_the_parameter,
    a_client_generated_id_is_403,
    unknown_routes_and_malformed_ids_are_404,
    a_wrong_method_is_405_with_allow,
    unacceptable_accept_headers_are_406,
    a_wrong_type_is_409,
    bodies_over_the_limit_are_413,
    unsupported_content_types_are_415,
    hostile_input_never_causes_a_server_error,
    an_internal_failure_is_an_opaque_500,
);

async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    content_type: &str,
    body: impl Into<reqwest::Body>,
) -> reqwest::Response {
    app.request(method, path, Some(&app.key))
        .header("Content-Type", content_type)
        .body(body)
        .send()
        .await
        .expect("request")
}

async fn malformed_json_is_400(app: TestApp) {
    for body in ["{", "{\"data\": }", "", "nul", "\u{0}"] {
        let response = send(&app, Method::POST, "/v2/tracking_requests", JSON_API, body).await;
        assert_eq!(
            codes(&errors(response, 400).await)[0].0,
            "malformed_json",
            "{body:?}"
        );
    }
}

async fn a_body_that_is_not_a_document_is_400(app: TestApp) {
    for body in [
        json!([]),
        json!("text"),
        json!({"type": "tracking_request"}),
        json!({"data": []}),
        json!({"data": null}),
    ] {
        let response = app.create(&body).await;
        assert_eq!(
            codes(&errors(response, 400).await),
            [("malformed_json".to_owned(), "/data".to_owned())],
            "{body}"
        );
    }
}

async fn query_parameter_problems_are_400_with_the_parameter(app: TestApp) {
    for (query, code, parameter) in [
        ("page[size]=0", "invalid_parameter", "page[size]"),
        ("page[size]=101", "invalid_parameter", "page[size]"),
        ("page[number]=abc", "invalid_parameter", "page[number]"),
        ("include=account", "invalid_include", "include"),
        ("filter[colour]=red", "invalid_filter", "filter[colour]"),
        ("filter[status]=lost", "invalid_filter", "filter[status]"),
        (
            "filter[created_at][start]=yesterday",
            "invalid_filter",
            "filter[created_at][start]",
        ),
        ("sort=-created_at", "invalid_parameter", "sort"),
        ("q=a&q=b", "invalid_parameter", "q"),
        (
            "page[size]=5&page[size]=6",
            "invalid_parameter",
            "page[size]",
        ),
    ] {
        let response = app.get(&format!("/v2/tracking_requests?{query}")).await;
        assert_eq!(
            codes(&errors(response, 400).await),
            [(code.to_owned(), parameter.to_owned())],
            "{query}"
        );
    }
    let id = TrackingRequestId::new();
    let response = app
        .get(&format!("/v2/tracking_requests/{id}?include=shipment"))
        .await;
    assert_eq!(codes(&errors(response, 400).await)[0].0, "invalid_include");
}

async fn a_client_generated_id_is_403(app: TestApp) {
    let mut body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU");
    body["data"]["id"] = json!(TrackingRequestId::new().to_string());
    assert_eq!(
        codes(&errors(app.create(&body).await, 403).await),
        [("client_id_not_allowed".to_owned(), "/data/id".to_owned())]
    );
}

async fn unknown_routes_and_malformed_ids_are_404(app: TestApp) {
    for path in [
        "/v2/nothing",
        "/v1",
        "/v3/tracking_requests",
        "/v2/tracking_requests/not-a-uuid",
        &format!("/v2/tracking_requests/{}", TrackingRequestId::new()),
    ] {
        assert_eq!(
            codes(&errors(app.get(path).await, 404).await)[0].0,
            "not_found",
            "{path}"
        );
    }
}

async fn a_wrong_method_is_405_with_allow(app: TestApp) {
    let response = app.call(Method::DELETE, "/v2/tracking_requests").await;
    assert_eq!(response.headers()["allow"], "GET,HEAD,POST");
    assert_eq!(
        codes(&errors(response, 405).await)[0].0,
        "method_not_allowed"
    );
    let response = app
        .request(Method::PUT, "/healthz", None)
        .send()
        .await
        .expect("request");
    assert_eq!(response.headers()["allow"], "GET,HEAD");
    errors(response, 405).await;
}

/// `GET /v2/tracking_requests` with `Accept: accept`.
async fn accepting(app: &TestApp, accept: &str) -> reqwest::Response {
    app.request(Method::GET, "/v2/tracking_requests", Some(&app.key))
        .header("Accept", accept)
        .send()
        .await
        .expect("request")
}

async fn unacceptable_accept_headers_are_406(app: TestApp) {
    for accept in [
        "application/vnd.api+json; charset=utf-8",
        "application/vnd.api+json; ext=\"https://example.com/x\"",
    ] {
        let response = accepting(&app, accept).await;
        assert_eq!(
            codes(&errors(response, 406).await)[0].0,
            "not_acceptable",
            "{accept}"
        );
    }
    for accept in [
        "application/vnd.api+json",
        "*/*",
        "application/json",
        "application/vnd.api+json; charset=utf-8, application/vnd.api+json",
    ] {
        let response = accepting(&app, accept).await;
        assert_eq!(response.status(), 200, "{accept}");
    }
}

async fn a_wrong_type_is_409(app: TestApp) {
    let mut body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU");
    body["data"]["type"] = json!("shipment");
    assert_eq!(
        codes(&errors(app.create(&body).await, 409).await),
        [("type_mismatch".to_owned(), "/data/type".to_owned())]
    );
    body["data"]["type"] = json!(7);
    errors(app.create(&body).await, 409).await;
}

async fn bodies_over_the_limit_are_413(app: TestApp) {
    let mut body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU");
    body["data"]["attributes"]["padding"] = json!("x".repeat(70 * 1024));
    let response = send(
        &app,
        Method::POST,
        "/v2/tracking_requests",
        JSON_API,
        body.to_string(),
    )
    .await;
    assert_eq!(
        codes(&errors(response, 413).await)[0].0,
        "payload_too_large"
    );
    // Without Content-Length (chunked), the limit still holds while reading.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        (0..80).map(|_| Ok(vec![b' '; 1024])).collect();
    let stream = reqwest::Body::wrap_stream(futures::stream::iter(chunks));
    let response = send(
        &app,
        Method::POST,
        "/v2/tracking_requests",
        JSON_API,
        stream,
    )
    .await;
    assert_eq!(
        codes(&errors(response, 413).await)[0].0,
        "payload_too_large"
    );
}

async fn unsupported_content_types_are_415(app: TestApp) {
    let body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU").to_string();
    for content_type in [
        "text/plain",
        "application/vnd.api+json; charset=utf-8",
        "application/x-www-form-urlencoded",
    ] {
        let response = send(
            &app,
            Method::POST,
            "/v2/tracking_requests",
            content_type,
            body.clone(),
        )
        .await;
        assert_eq!(
            codes(&errors(response, 415).await)[0].0,
            "unsupported_media_type",
            "{content_type}"
        );
    }
    let response = app
        .request(Method::POST, "/v2/tracking_requests", Some(&app.key))
        .body(body.clone())
        .send()
        .await
        .expect("request");
    errors(response, 415).await;
    let response = send(
        &app,
        Method::POST,
        "/v2/tracking_requests",
        "application/json",
        body,
    )
    .await;
    assert_eq!(response.status(), 201, "application/json is accepted");
}

/// Values that have broken parsers elsewhere: wrong types, extremes, control and
/// combining characters, nesting.
fn hostile_values() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(1e308),
        json!(""),
        json!(" "),
        json!("\u{0}\u{1}\u{7f}"),
        json!("A\u{301}\u{301}\u{301}"),
        json!("😀".repeat(70)),
        json!("x".repeat(10_000)),
        json!("' OR 1=1 --"),
        json!("../../etc/passwd"),
        json!("\u{202e}RTL"),
        json!([]),
        json!([null, 1, "a"]),
        json!({}),
        json!({"nested": {"deeper": [1, 2, {"x": "y"}]}}),
    ]
}

async fn hostile_input_never_causes_a_server_error(app: TestApp) {
    let created = app
        .create(&tracking_request("bill_of_lading", "MEDU1234567", "MSCU"))
        .await;
    let id = crate::common::document(created).await["data"]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let fields = [
        "request_type",
        "request_number",
        "scac",
        "auto_detect_vocc_scac",
        "ref_numbers",
        "shipment_tags",
    ];
    for value in hostile_values() {
        for field in fields {
            let mut body = tracking_request("container", "CSQU3054383", "HLCU");
            body["data"]["attributes"][field] = value.clone();
            let status = app.create(&body).await.status().as_u16();
            assert!(
                (200..500).contains(&status),
                "create {field}={value}: {status}"
            );
            let patch =
                json!({"data": {"type": "tracking_request", "attributes": {field: value.clone()}}});
            let status = app
                .patch(&format!("/v2/tracking_requests/{id}"), &patch)
                .await
                .status()
                .as_u16();
            assert!(
                (200..500).contains(&status),
                "patch {field}={value}: {status}"
            );
        }
        for member in ["type", "id", "attributes", "relationships"] {
            let mut body = tracking_request("container", "CSQU3054383", "HLCU");
            body["data"][member] = value.clone();
            let status = app.create(&body).await.status().as_u16();
            assert!(
                (200..500).contains(&status),
                "data.{member}={value}: {status}"
            );
        }
        let text = value.to_string();
        for query in [
            format!("filter[status]={text}"),
            format!("page[size]={text}"),
            format!("include={text}"),
        ] {
            let url = format!(
                "/v2/tracking_requests?{}",
                query.replace('&', "%26").replace('#', "%23")
            );
            let status = app.get(&url).await.status().as_u16();
            assert!((200..500).contains(&status), "{query}: {status}");
        }
    }
}

async fn an_internal_failure_is_an_opaque_500(app: TestApp) {
    // A damaged database: the tracking requests' table is gone.
    app.database.break_table("tracking_requests").await;
    let response = app.get("/v2/tracking_requests").await;
    let text = {
        let errors = errors(response, 500).await;
        assert_eq!(errors[0]["code"], "internal_error");
        serde_json::to_string(&errors).expect("json")
    };
    for secret in [
        "tracking_requests",
        "no such table",
        "does not exist",
        "relation",
    ] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
}
