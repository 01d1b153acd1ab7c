//! `POST /v2/tracking_requests/infer_number` (api.md §3). It reads no tracking data, so it
//! runs on SQLite only (authentication is covered on both backends elsewhere).

use std::num::NonZeroU32;

use reqwest::Method;
use serde_json::{Value, json};
use tidemark_api::RateLimitConfig;
use tidemark_store::testing::Backend;

use crate::common::{JSON_API, TestApp, codes, errors};

const PATH: &str = "/v2/tracking_requests/infer_number";

async fn app() -> TestApp {
    TestApp::spawn(Backend::Sqlite).await
}

async fn post(app: &TestApp, body: &str, content_type: &str) -> reqwest::Response {
    app.request(Method::POST, PATH, Some(&app.key))
        .header("Content-Type", content_type)
        .body(body.to_owned())
        .send()
        .await
        .expect("request")
}

/// The attributes of a 200 answer, after checking the document around them.
async fn infer(app: &TestApp, number: &str) -> Value {
    let response = post(
        app,
        &json!({ "number": number }).to_string(),
        "application/json",
    )
    .await;
    assert_eq!(response.status(), 200, "{number}");
    assert_eq!(response.headers()["content-type"], "application/json");
    let body: Value = response.json().await.expect("JSON");
    let data = &body["data"];
    assert_eq!(data["type"], "infer_number_results");
    assert!(
        data["id"]
            .as_str()
            .and_then(|id| uuid::Uuid::parse_str(id).ok())
            .is_some(),
        "{body}"
    );
    data["attributes"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_carrier_owned_container_is_auto_selected() {
    let app = app().await;
    let attributes = infer(&app, "msku 305438-8").await;
    assert_eq!(
        attributes,
        json!({
            "number_type": "container",
            "validation": {"is_valid": true, "type": "container", "check_digit_passed": true,
                           "parsed_number": "MSKU3054388", "reason": null, "notes": []},
            "shipping_line": {
                "decision": "auto_select",
                "selected": {"scac": "MAEU", "name": "Maersk", "confidence": 0.97},
                "candidates": [{"scac": "MAEU", "name": "Maersk", "confidence": 0.97,
                                "reason": "container prefix MSKU is registered to Maersk"}]}
        })
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_well_formed_container_with_a_placeholders_serial_is_valid_and_asks_for_confirmation() {
    let app = app().await;
    for (number, scac) in [("MEDU3456785", "MSCU"), ("MSCU7654329", "MSCU")] {
        let attributes = infer(&app, number).await;
        let validation = &attributes["validation"];
        assert_eq!(validation["is_valid"], true, "{number}: {validation}");
        assert_eq!(validation["check_digit_passed"], true, "{number}");
        assert_eq!(validation["reason"], Value::Null, "{number}");
        assert!(
            validation["notes"][0]
                .as_str()
                .is_some_and(|note| note.contains("placeholder")),
            "{number}: {validation}"
        );
        let line = &attributes["shipping_line"];
        assert_eq!(line["decision"], "needs_confirmation", "{number}");
        assert_eq!(line["selected"]["scac"], scac, "{number}: {line}");
        assert_eq!(line["candidates"][0]["scac"], scac, "{number}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_check_digit_is_reported_and_not_auto_selected() {
    let app = app().await;
    let attributes = infer(&app, "MSCU3054380").await;
    let validation = &attributes["validation"];
    assert_eq!(validation["is_valid"], false);
    assert_eq!(validation["check_digit_passed"], false);
    assert!(
        validation["reason"]
            .as_str()
            .is_some_and(|r| r.contains("check digit") && r.contains("give 9")),
        "{validation}"
    );
    assert_eq!(
        attributes["shipping_line"]["decision"],
        "needs_confirmation"
    );
    assert_eq!(attributes["shipping_line"]["selected"]["scac"], "MSCU");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bills_bookings_and_unknown_numbers_get_their_verdicts() {
    let app = app().await;
    let bill = infer(&app, "ZIMUSNH1160339").await;
    assert_eq!(bill["number_type"], "bill_of_lading");
    assert_eq!(bill["validation"]["type"], "shipment");
    assert_eq!(bill["validation"]["check_digit_passed"], Value::Null);
    assert_eq!(bill["shipping_line"]["decision"], "auto_select");
    assert_eq!(bill["shipping_line"]["selected"]["confidence"], 0.98);

    let booking = infer(&app, "SH9FSK690300").await;
    assert_eq!(booking["number_type"], "booking");
    assert_eq!(booking["shipping_line"]["candidates"][0]["scac"], "ONEY");

    let shared = infer(&app, "586118841").await;
    assert_eq!(shared["shipping_line"]["decision"], "needs_confirmation");
    assert_eq!(shared["shipping_line"]["selected"]["scac"], "MAEU");
    assert_eq!(shared["shipping_line"]["selected"]["confidence"], 0.8);
    let scacs: Vec<&str> = shared["shipping_line"]["candidates"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|c| c["scac"].as_str())
        .collect();
    assert_eq!(scacs, ["MAEU", "SEAU", "SEJJ", "SAFM", "MCCQ", "EGLV"]);

    let lessor = infer(&app, "TGHU3054380").await;
    assert_eq!(lessor["number_type"], "container");
    assert_eq!(lessor["validation"]["is_valid"], true);
    assert_eq!(lessor["shipping_line"]["decision"], "no_prediction");
    assert_eq!(lessor["shipping_line"]["selected"], Value::Null);

    let unknown = infer(&app, "NSE22110345").await;
    assert_eq!(unknown["number_type"], Value::Null);
    assert_eq!(unknown["validation"]["is_valid"], Value::Null);
    assert_eq!(unknown["shipping_line"]["candidates"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blank_long_and_mistyped_numbers_are_422_at_the_number() {
    let app = app().await;
    let long = "1".repeat(65);
    let huge = "A".repeat(10_000);
    for (body, code, pointer) in [
        (json!({}), "blank", "/number"),
        (json!({"number": null}), "blank", "/number"),
        (json!({"number": ""}), "blank", "/number"),
        (json!({"number": " \t\r\n"}), "blank", "/number"),
        (json!({"number": long}), "too_long", "/number"),
        (json!({"number": huge}), "too_long", "/number"),
        (json!({"number": 123_456_789}), "invalid", "/number"),
        (json!({"number": ["MSKU1234565"]}), "invalid", "/number"),
        (json!({"number": {"value": "x"}}), "invalid", "/number"),
        (json!({"number": true}), "invalid", "/number"),
        (
            json!({"number": "MSKU1234565", "scac": "MAEU"}),
            "invalid",
            "/scac",
        ),
    ] {
        let response = post(&app, &body.to_string(), "application/json").await;
        assert_eq!(
            codes(&errors(response, 422).await),
            [(code.to_owned(), pointer.to_owned())],
            "{body}"
        );
    }
    // Exactly 64 characters is accepted (counted in characters, not bytes).
    let edge = "é".repeat(64);
    let attributes = infer(&app, &edge).await;
    assert_eq!(attributes["validation"]["is_valid"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_strings_get_a_verdict_never_a_5xx() {
    let app = app().await;
    for number in [
        "\u{0}",
        "MSKU\u{0}1234565",
        "\u{202e}MSKU1234565",
        "😀😀😀",
        "ＭＳＫＵ１２３４５６５",
        "MSKU1234565\u{301}",
        "<script>alert(1)</script>",
        "' OR 1=1 --",
        "../../etc/passwd",
        "\u{feff}MSKU1234565",
        "ß",
        "-",
    ] {
        let attributes = infer(&app, number).await;
        assert_ne!(
            attributes["shipping_line"]["decision"], "auto_select",
            "{number:?}"
        );
    }
    for body in [
        "[]",
        "\"MSKU1234565\"",
        "null",
        "42",
        "{",
        "{\"number\": \"\\ud800\"}",
    ] {
        let status = post(&app, body, "application/json").await.status().as_u16();
        assert!((400..500).contains(&status), "{body}: {status}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_and_json_api_bodies_are_accepted_and_others_refused() {
    let app = app().await;
    let body = json!({"number": "MSKU1234565"}).to_string();
    assert_eq!(post(&app, &body, JSON_API).await.status(), 200);
    assert_eq!(
        post(&app, &body, "application/json; charset=utf-8")
            .await
            .status(),
        200
    );
    errors(post(&app, &body, "text/plain").await, 415).await;
    let anonymous = app
        .request(Method::POST, PATH, None)
        .header("Content-Type", "application/json")
        .body(body.clone())
        .send()
        .await
        .expect("request");
    errors(anonymous, 401).await;
    let read = app.get(PATH).await;
    assert_eq!(read.status(), 405);
    assert_eq!(read.headers()["allow"], "POST");
    errors(
        app.request(
            Method::POST,
            &format!("{PATH}?page[size]=1"),
            Some(&app.key),
        )
        .header("Content-Type", "application/json")
        .body(body)
        .send()
        .await
        .expect("request"),
        400,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn infer_has_its_own_rate_limit_with_retry_after() {
    let n = |v| NonZeroU32::new(v).expect("non-zero");
    let app = TestApp::build(Backend::Sqlite)
        .config(move |config| {
            config.rate_limits = RateLimitConfig {
                create_per_minute: n(100),
                infer_per_minute: n(2),
                refresh_per_minute: n(10),
                default_per_minute: n(100),
            };
        })
        .spawn()
        .await;
    let body = json!({"number": "MSKU1234565"}).to_string();
    for _ in 0..2 {
        let response = post(&app, &body, "application/json").await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["ratelimit-limit"], "2");
    }
    let refused = post(&app, &body, "application/json").await;
    let retry_after: u64 = refused.headers()["retry-after"]
        .to_str()
        .expect("text")
        .parse()
        .expect("seconds");
    assert!((1..=30).contains(&retry_after), "{retry_after}");
    assert_eq!(codes(&errors(refused, 429).await)[0].0, "rate_limited");
    assert_eq!(
        app.get("/v2/shipping_lines").await.status(),
        200,
        "other buckets are untouched"
    );
}

/// `tidemark infer -` answers every labelled number exactly as the endpoint does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_gives_the_endpoints_answers() {
    use std::io::Write;
    use std::process::{Command, Stdio};

    // Every labelled number is asked once: more than a minute's default allowance.
    let app = TestApp::build(Backend::Sqlite)
        .config(|config| {
            config.rate_limits.infer_per_minute = NonZeroU32::new(10_000).expect("non-zero");
        })
        .spawn()
        .await;
    let numbers: Vec<&str> = include_str!("../../../../data/eval/labelled-numbers.csv")
        .lines()
        .skip(1)
        .filter_map(|line| line.split(',').next())
        .collect();
    assert!(numbers.len() >= 100);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(["infer", "-"])
        .env_remove("TIDEMARK_DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = numbers.join("\n");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("finishes");
    writer.join().expect("writer").expect("written");
    assert!(output.status.success());
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), numbers.len());
    for (number, mut line) in numbers.into_iter().zip(lines) {
        assert_eq!(line["number"], number);
        line.as_object_mut().expect("object").remove("number");
        assert_eq!(line, infer(&app, number).await, "{number}");
    }
}
