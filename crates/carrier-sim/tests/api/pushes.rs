//! The line pushing its Arrival Notices to a subscriber (DCSA AN 1.0.1, subscriber side):
//! each body valid against the official request schemas, with the bearer token, and the
//! faults asked for (an older version, a body that is not JSON, another token).

use std::sync::{Arc, Mutex};

use axum::http::HeaderMap;
use serde_json::{Value, json};

use crate::notices::AN;
use crate::*;

/// What a subscriber received: path, authorization, body.
type Received = Arc<Mutex<Vec<(String, String, String)>>>;

/// A subscriber on loopback that keeps what it is sent and answers `feedbackElements`.
async fn subscriber() -> (String, Received) {
    let received: Received = Arc::default();
    let kept = Arc::clone(&received);
    let app = axum::Router::new().fallback(
        move |uri: axum::http::Uri, headers: HeaderMap, body: String| {
            let kept = Arc::clone(&kept);
            async move {
                let auth = headers
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                kept.lock()
                    .expect("lock")
                    .push((uri.path().to_owned(), auth, body));
                axum::Json(json!({"feedbackElements": []}))
            }
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!(
        "http://{}/callbacks/TEST",
        listener.local_addr().expect("address")
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, received)
}

fn validator(schema: &str) -> jsonschema::Validator {
    let mut root = json!({"$ref": format!("#/components/schemas/{schema}")});
    root["components"] = AN["components"].clone();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&root)
        .expect("the schema compiles")
}

async fn order(sim: &Sim, url: &str, kind: &str, fault: Option<&str>) -> Value {
    let order = json!({"subscriber": url, "token": "line-token", "scac": "TEST",
                       "bill": "TEST-TR-HOLDS", "as": kind, "fault": fault});
    sim.admin_json(
        reqwest::Method::POST,
        "/admin/arrival-notice-pushes",
        Some(order),
    )
    .await
}

#[tokio::test]
async fn notices_and_notifications_are_pushed_as_the_standard_writes_them() {
    let sim = Sim::start(config()).await;
    let (url, received) = subscriber().await;
    // The scripted number's timeline starts when it is first asked about: now, the vessel
    // twelve hours out; sixty hours on, its notice is issued and the freight released.
    sim.all("/TEST/v2/events?carrierBookingReference=TEST-TR-HOLDS")
        .await;
    sim.sim.clock().advance(time::Duration::hours(60));
    for kind in ["notices", "notifications"] {
        let answer = order(&sim, &url, kind, None).await;
        assert_eq!(answer["status"], 200);
        assert_eq!(answer["body"], json!({"feedbackElements": []}));
    }
    order(&sim, &url, "notices", Some("stale")).await;
    order(&sim, &url, "notices", Some("garbled")).await;
    order(&sim, &url, "notices", Some("wrong_token")).await;

    let got = received.lock().expect("lock").clone();
    let paths: Vec<&str> = got.iter().map(|(path, _, _)| path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/callbacks/TEST/arrival-notices",
            "/callbacks/TEST/arrival-notice-notifications",
            "/callbacks/TEST/arrival-notices",
            "/callbacks/TEST/arrival-notices",
            "/callbacks/TEST/arrival-notices",
        ]
    );
    let body = |index: usize| -> Value { serde_json::from_str(&got[index].2).expect("JSON") };
    assert_valid(&validator("PostArrivalNoticesRequest"), &body(0));
    assert_valid(
        &validator("PostArrivalNoticeNotificationsRequest"),
        &body(1),
    );
    assert_eq!(got[0].1, "Bearer line-token");

    let stale = body(2);
    assert_valid(&validator("PostArrivalNoticesRequest"), &stale);
    let issued = |doc: &Value| {
        doc["arrivalNotices"][0]["issueDateTime"]
            .as_str()
            .map(str::to_owned)
    };
    assert!(issued(&stale) < issued(&body(0)), "an older version");
    assert_eq!(
        stale["arrivalNotices"][0]["releaseInformation"]["isFreightReleased"],
        false
    );

    assert!(serde_json::from_str::<Value>(&got[3].2).is_err(), "garbled");
    assert_eq!(got[4].1, "Bearer line-token-not");
}

#[tokio::test]
async fn a_push_of_no_notice_or_to_no_one_says_so() {
    let sim = Sim::start(config()).await;
    let none = sim
        .admin(
            reqwest::Method::POST,
            "/admin/arrival-notice-pushes",
            Some(
                json!({"subscriber": "http://127.0.0.1:9", "token": "t", "scac": "TEST",
                        "bill": "TEST-TR-JOURNEY"}),
            ),
        )
        .await;
    assert_eq!(none.status(), 404, "not issued yet");
    let unreachable = sim
        .admin(
            reqwest::Method::POST,
            "/admin/arrival-notice-pushes",
            Some(
                json!({"subscriber": "http://127.0.0.1:9", "token": "t", "scac": "TEST",
                        "bill": "TEST-TR-HOLDS"}),
            ),
        )
        .await;
    assert_eq!(unreachable.status(), 502);
}

#[tokio::test]
async fn a_terminal_takes_subscriptions_and_pushes_them_with_the_faults_asked() {
    let sim = Sim::start(config()).await;
    let (url, received) = subscriber().await;
    let subscribe = |body: Value, key: &'static str| {
        sim.client
            .post(format!(
                "{}/terminals/USORFVIG/import-availability/subscriptions",
                sim.base
            ))
            .header("API-Key", key)
            .json(&body)
            .send()
    };
    let good = json!({"containers": ["MSKU1234565"], "callbackUrl": url, "callbackToken": "t0ken"});
    assert_eq!(
        subscribe(good.clone(), "wrong")
            .await
            .expect("request")
            .status(),
        401
    );
    assert_eq!(
        subscribe(json!({"containers": []}), KEY)
            .await
            .expect("request")
            .status(),
        400
    );
    let taken = subscribe(good, KEY).await.expect("request");
    assert_eq!(taken.status(), 201);
    let until: Value = taken.json().await.expect("json");
    assert!(until["expiresAt"].is_string());

    for fault in [None, Some("wrong_token"), Some("garbled")] {
        let pushed = sim
            .admin_json(
                reqwest::Method::POST,
                "/admin/terminal-pushes",
                Some(json!({"fault": fault})),
            )
            .await;
        assert_eq!(pushed["pushes"][0]["containers"], 1);
        assert_eq!(pushed["pushes"][0]["answer"]["status"], 200);
    }
    let got = received.lock().expect("lock").clone();
    assert_eq!(got.len(), 3);
    assert_eq!(got[0].1, "Bearer t0ken");
    let first: Value = serde_json::from_str(&got[0].2).expect("JSON");
    assert_eq!(first["containers"][0]["containerNumber"], "MSKU1234565");
    assert_eq!(
        first["containers"][0]["known"], false,
        "no carrier served it"
    );
    assert_eq!(got[1].1, "Bearer t0ken-not");
    assert!(serde_json::from_str::<Value>(&got[2].2).is_err());
}
