//! Configured limits are enforced: rate limits per account and class, body size, page
//! size and field lengths (api.md §1 "Limits", "Rate limits").

use std::num::NonZeroU32;

use serde_json::json;
use tidemark_api::RateLimitConfig;
use tidemark_store::testing::Backend;

use crate::common::{TestApp, codes, errors, tracking_request};

/// An app with `create` creates and `default` other calls a minute, and 2 KiB bodies.
async fn tiny(create: u32, default: u32) -> TestApp {
    let n = |v| NonZeroU32::new(v).expect("non-zero");
    TestApp::build(Backend::Sqlite)
        .config(move |config| {
            config.rate_limits = RateLimitConfig {
                create_per_minute: n(create),
                infer_per_minute: n(200),
                refresh_per_minute: n(10),
                default_per_minute: n(default),
            };
            config.limits.body_bytes = 2048;
        })
        .spawn()
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creates_over_the_limit_get_429_with_retry_after_per_account() {
    let app = tiny(2, 100).await;
    for i in 0..2 {
        let response = app
            .create(&tracking_request(
                "booking_number",
                &format!("{i:09}"),
                "MAEU",
            ))
            .await;
        assert_eq!(response.status(), 201);
        assert_eq!(response.headers()["ratelimit-limit"], "2");
        assert_eq!(
            response.headers()["ratelimit-remaining"],
            (1 - i).to_string()
        );
    }
    let refused = app
        .create(&tracking_request("booking_number", "000000009", "MAEU"))
        .await;
    let retry_after: u64 = refused.headers()["retry-after"]
        .to_str()
        .expect("text")
        .parse()
        .expect("whole seconds");
    assert!((1..=30).contains(&retry_after), "{retry_after}");
    assert_eq!(refused.headers()["ratelimit-remaining"], "0");
    assert!(refused.headers().contains_key("ratelimit-reset"));
    assert_eq!(codes(&errors(refused, 429).await)[0].0, "rate_limited");

    assert_eq!(
        app.get("/v2/tracking_requests").await.status(),
        200,
        "reads use another bucket"
    );
    let (_, other) = app.new_account("globex").await;
    let theirs = app
        .post_json(
            "/v2/tracking_requests",
            &other,
            &tracking_request("booking_number", "000000001", "MAEU"),
        )
        .await;
    assert_eq!(theirs.status(), 201, "another account has its own bucket");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_over_the_default_limit_get_429() {
    let app = tiny(100, 3).await;
    for _ in 0..3 {
        assert_eq!(app.get("/v2/tracking_requests").await.status(), 200);
    }
    let refused = app.get("/v2/tracking_requests").await;
    assert!(refused.headers().contains_key("retry-after"));
    errors(refused, 429).await;
    assert_eq!(
        app.get("/healthz").await.status(),
        200,
        "operations endpoints are not limited"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_body_limit_is_configurable() {
    let app = tiny(100, 100).await;
    let mut body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU");
    body["data"]["attributes"]["ref_numbers"] = json!(vec!["x".repeat(100); 25]);
    errors(app.create(&body).await, 413).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_and_item_limits_are_enforced() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let mut body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU");
    body["data"]["attributes"]["ref_numbers"] = json!(vec!["PO"; 51]);
    body["data"]["attributes"]["shipment_tags"] = json!(["x".repeat(129)]);
    let mut found = codes(&errors(app.create(&body).await, 422).await);
    found.sort();
    assert_eq!(
        found,
        [
            (
                "too_long".to_owned(),
                "/data/attributes/shipment_tags/0".to_owned()
            ),
            (
                "too_many".to_owned(),
                "/data/attributes/ref_numbers".to_owned()
            ),
        ]
    );
    body["data"]["attributes"]["ref_numbers"] = json!(vec!["PO"; 50]);
    body["data"]["attributes"]["shipment_tags"] = json!(["x".repeat(128)]);
    assert_eq!(
        app.create(&body).await.status(),
        201,
        "the limits themselves are allowed"
    );
}

/// The OpenAPI document states the field limits this instance holds, and a body at the
/// stated limit is taken while one past it is refused.
#[tokio::test]
async fn the_documented_field_limits_are_the_configured_ones() {
    let app = TestApp::build(Backend::Sqlite)
        .config(|config| {
            config.limits.request_number_chars = 40;
            config.limits.list_items = 3;
            config.limits.list_item_chars = 20;
        })
        .spawn()
        .await;
    let document: serde_json::Value = app
        .get("/v2/openapi.json")
        .await
        .json()
        .await
        .expect("json");
    let schemas = &document["components"]["schemas"];
    let create = &schemas["CreateTrackingRequestAttributes"]["properties"];
    assert_eq!(create["request_number"]["maxLength"], 40);
    for (schema, list) in [
        ("CreateTrackingRequestAttributes", "ref_numbers"),
        ("CreateTrackingRequestAttributes", "shipment_tags"),
        ("UpdateTrackingRequestAttributes", "shipment_tags"),
        ("UpdateShipmentAttributes", "tags"),
        ("UpdateContainerAttributes", "ref_numbers"),
    ] {
        let property = &schemas[schema]["properties"][list];
        assert_eq!(property["maxItems"], 3, "{schema}.{list}");
        let said = property["description"].as_str().unwrap_or_default();
        assert!(
            said.contains("At most 3 items of up to 20 characters"),
            "{said}"
        );
    }
    assert_eq!(schemas["ListItem"]["maxLength"], 20);

    let mut body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU");
    body["data"]["attributes"]["ref_numbers"] = json!(["A".repeat(20), "B", "C"]);
    assert_eq!(app.create(&body).await.status(), 201);
    body["data"]["attributes"]["request_number"] = json!("MEDU7654321");
    body["data"]["attributes"]["ref_numbers"] = json!(["A".repeat(21)]);
    assert_eq!(app.create(&body).await.status(), 422);
}
