//! Health, request ids, the OpenAPI document and graceful shutdown.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use tidemark_store::testing::Backend;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{TestApp, tracking_request};

#[tokio::test]
async fn health_and_readiness_answer() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let health: Value = app.get("/healthz").await.json().await.expect("json");
    assert_eq!(health["status"], "ok");
    let ready: Value = app.get("/readyz").await.json().await.expect("json");
    assert_eq!(ready["status"], "ready");
}

#[tokio::test]
async fn request_ids_are_echoed_or_generated() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let echoed = app
        .request(Method::GET, "/healthz", None)
        .header("X-Request-Id", "trace-me-42")
        .send()
        .await
        .expect("request");
    assert_eq!(echoed.headers()["x-request-id"], "trace-me-42");
    let generated = app
        .request(Method::GET, "/v2/nothing", None)
        .send()
        .await
        .expect("request");
    let id = generated.headers()["x-request-id"].to_str().expect("text");
    assert!(
        tidemark_domain::TrackingRequestId::parse(id).is_some(),
        "a UUID: {id}"
    );
}

async fn openapi(app: &TestApp) -> Value {
    app.get("/v2/openapi.json")
        .await
        .json()
        .await
        .expect("json")
}

#[tokio::test]
async fn the_openapi_document_describes_every_endpoint_and_error() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let document = openapi(&app).await;
    assert_eq!(document["openapi"], "3.1.0");
    let paths = document["paths"].as_object().expect("paths");
    for path in [
        "/v2/tracking_requests",
        "/v2/tracking_requests/{id}",
        "/healthz",
        "/readyz",
    ] {
        assert!(paths.contains_key(path), "{path} is documented");
    }
    let create = &document["paths"]["/v2/tracking_requests"]["post"]["responses"];
    for status in [
        "201", "400", "401", "403", "406", "409", "413", "415", "422", "429", "500",
    ] {
        assert!(
            create.get(status).is_some(),
            "POST /v2/tracking_requests documents {status}"
        );
    }
    assert!(
        document["paths"]["/v2/tracking_requests/{id}"]["get"]["responses"]
            .get("404")
            .is_some()
    );
    for path in [
        "/carrier-callbacks/{scac}/arrival-notices",
        "/carrier-callbacks/{scac}/arrival-notice-notifications",
    ] {
        let push = &document["paths"][path]["post"];
        assert_eq!(push["security"], json!([{"callback_token": []}]), "{path}");
        let responses = push["responses"].as_object().expect("responses");
        let statuses: Vec<&str> = responses.keys().map(String::as_str).collect();
        assert_eq!(
            statuses,
            [
                "200", "400", "401", "406", "408", "413", "415", "500", "503"
            ],
            "{path}: no API-key errors (no rate limit)"
        );
    }
    assert_eq!(
        document["components"]["securitySchemes"]["callback_token"]["scheme"],
        "bearer"
    );
}

/// The codes only some operations answer are documented on those, each at its code's
/// status and in its code's words; so are those every write or read may answer.
#[tokio::test]
async fn each_operation_documents_its_own_error_codes() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let document = openapi(&app).await;
    for (path, method, status, code) in [
        (
            "/v2/shipments/{id}/stop_tracking",
            "patch",
            "409",
            "`invalid_state`",
        ),
        (
            "/v2/shipments/{id}/stop_tracking",
            "patch",
            "409",
            "`conflict`",
        ),
        (
            "/v2/containers/{id}/refresh",
            "patch",
            "409",
            "`tracking_stopped`",
        ),
        (
            "/v2/webhook_notifications/{id}/redeliver",
            "post",
            "409",
            "`in_flight`",
        ),
        ("/v2/tracking_requests", "post", "507", "`storage_full`"),
        (
            "/v2/tracking_requests/{id}",
            "get",
            "503",
            "`database_unavailable`",
        ),
    ] {
        let said = document["paths"][path][method]["responses"][status]["description"].as_str();
        assert!(
            said.is_some_and(|s| s.contains(code)),
            "{method} {path} {status}: {said:?}"
        );
    }
}

#[tokio::test]
async fn every_authenticated_post_documents_its_idempotency_key() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let document = openapi(&app).await;
    let mut posts = 0;
    for (path, item) in document["paths"].as_object().expect("paths") {
        let names = |operation: &Value| -> Vec<String> {
            let parameters = operation["parameters"].as_array().into_iter().flatten();
            parameters.map(|p| p["name"].to_string()).collect()
        };
        let key = "\"Idempotency-Key\"".to_owned();
        assert!(!names(&item["get"]).contains(&key), "GET {path}");
        if item["post"].is_null() {
            continue;
        }
        let documented = names(&item["post"]).contains(&key);
        assert_eq!(documented, !path.contains("-callbacks/"), "POST {path}");
        posts += usize::from(documented);
    }
    assert!(posts >= 4, "{posts} authenticated POSTs");
}

/// Every body the document describes, in paths and webhooks, with its pointer.
fn bodies(document: &Value) -> Vec<(String, &Value)> {
    let mut found = Vec::new();
    for section in ["paths", "webhooks"] {
        for (path, item) in document[section].as_object().expect("section") {
            for (method, operation) in item.as_object().expect("item") {
                let requests = operation["requestBody"]["content"].as_object();
                let answers = operation["responses"].as_object().into_iter().flatten();
                let media = requests
                    .into_iter()
                    .flatten()
                    .map(|(kind, media)| (kind.clone(), media));
                let media = media.chain(answers.flat_map(|(status, answer)| {
                    answer["content"]
                        .as_object()
                        .into_iter()
                        .flatten()
                        .map(move |(kind, media)| (format!("{status} {kind}"), media))
                }));
                for (what, media) in media {
                    found.push((format!("{section} {path} {method} {what}"), media));
                }
            }
        }
    }
    found
}

/// The reference's needs: a server, every delivery under `webhooks` with a sample body,
/// and an example of every body, errors included (the linter in CI checks each against
/// its schema).
#[tokio::test]
async fn the_openapi_document_has_servers_webhooks_and_an_example_of_every_body() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let document = openapi(&app).await;
    assert_eq!(document["servers"][0]["url"], "/");
    let events: Value = app
        .get("/v2/webhooks/events")
        .await
        .json()
        .await
        .expect("json");
    let webhooks = document["webhooks"].as_object().expect("webhooks");
    let produced: Vec<&str> = events["data"]
        .as_array()
        .expect("categories")
        .iter()
        .flat_map(|category| category["attributes"]["events"].as_array().expect("events"))
        .filter(|event| event["produced"] == true)
        .map(|event| event["name"].as_str().expect("name"))
        .collect();
    assert!(produced.len() > 30, "{produced:?}");
    for name in produced {
        let delivery = webhooks
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not under webhooks"));
        let body = &delivery["post"]["requestBody"]["content"]["application/json"];
        assert_eq!(
            body["example"]["data"]["attributes"]["event"], name,
            "{name}"
        );
    }
    let bodies = bodies(&document);
    assert!(bodies.len() > 300, "{}", bodies.len());
    for (what, media) in bodies {
        assert!(media.get("example").is_some(), "no example: {what}");
    }
    let missing = &document["paths"]["/v2/tracking_requests/{id}"]["get"]["responses"]["404"];
    let error = &missing["content"]["application/vnd.api+json"]["example"]["errors"][0];
    assert_eq!(
        (error["status"].as_str(), error["title"].as_str()),
        (Some("404"), Some("Not Found"))
    );
}

/// `/docs` renders the document with the script built into the binary.
#[tokio::test]
async fn the_reference_page_is_served_with_its_script() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let page = app.get("/docs").await;
    assert_eq!(page.headers()["content-type"], "text/html; charset=utf-8");
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .expect("text")
        .to_owned();
    assert!(policy.contains("connect-src 'self'"), "{policy}");
    let html = page.text().await.expect("page");
    assert!(html.contains("spec-url=\"/v2/openapi.json\""));
    let script = app.get("/docs/redoc.standalone.js").await;
    assert_eq!(script.status(), 200);
    assert!(script.bytes().await.expect("script").len() > 500_000);
}

#[tokio::test]
async fn the_documented_page_sizes_are_the_configured_ones() {
    let app = TestApp::build(Backend::Sqlite)
        .config(|config| {
            config.limits.page_size_default = 20;
            config.limits.page_size_max = 50;
        })
        .spawn()
        .await;
    let document = openapi(&app).await;
    let mut lists = 0;
    for (path, item) in document["paths"].as_object().expect("paths") {
        for parameter in item["get"]["parameters"].as_array().into_iter().flatten() {
            if parameter["name"] != "page[size]" {
                continue;
            }
            lists += 1;
            assert_eq!(parameter["schema"]["maximum"], 50, "{path}");
            let whole_page = path.ends_with("/raw_events") || path == "/v2/shipping_lines";
            let default = if whole_page { 50 } else { 20 };
            assert_eq!(parameter["schema"]["default"], default, "{path}");
        }
    }
    assert!(lists >= 7, "every list documents page[size]: {lists}");
    // The limit the document states is the one the API holds.
    let over = app.get("/v2/tracking_requests?page[size]=51").await;
    assert_eq!(over.status(), 400);
    let within = app.get("/v2/tracking_requests?page[size]=50").await;
    assert_eq!(within.status(), 200);
    // The carrier list (over 70 lines) answers the documented whole page by default.
    let lines: Value = app
        .get("/v2/shipping_lines")
        .await
        .json()
        .await
        .expect("json");
    assert_eq!(lines["data"].as_array().map(Vec::len), Some(50));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_lets_a_request_in_flight_finish() {
    let mut app = TestApp::spawn(Backend::Sqlite).await;
    let body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU").to_string();
    let address = app.base.trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&address)
        .await
        .expect("connect");
    let head = format!(
        "POST /v2/tracking_requests HTTP/1.1\r\nHost: {address}\r\nAuthorization: Token {}\r\n\
         Content-Type: application/vnd.api+json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        app.key,
        body.len()
    );
    stream.write_all(head.as_bytes()).await.expect("write head");
    // The server answers 100 Continue when the handler starts reading the body: the
    // request is now in flight.
    let mut interim = Vec::new();
    while !interim.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        stream.read_exact(&mut byte).await.expect("interim answer");
        interim.push(byte[0]);
    }
    assert!(
        String::from_utf8_lossy(&interim).starts_with("HTTP/1.1 100"),
        "{}",
        String::from_utf8_lossy(&interim)
    );

    app.shutdown.cancel();
    stream.write_all(body.as_bytes()).await.expect("write body");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("read");
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");

    let server = app.server.take().expect("server");
    tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .expect("stops")
        .expect("joins")
        .expect("serves");
    assert!(
        tokio::net::TcpStream::connect(&address).await.is_err(),
        "no longer accepting"
    );
}
