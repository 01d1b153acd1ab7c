//! The simulator over real HTTP on loopback: the DCSA 2.2 contract (validated against the
//! official resolved schema), the deterministic world, the clock, the sandbox numbers,
//! fault injection and the admin API.

use std::sync::LazyLock;
use std::time::Duration;

use carrier_sim::{ClockMode, NextPage, OAuthClient, SimConfig, Simulator};
use reqwest::StatusCode;
use serde_json::{Value, json};
use time::macros::datetime;

const KEY: &str = "sim-key";
const ADMIN: &str = "sim-admin";

static SPEC: LazyLock<Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../dcsa/TNT_v2.2.0-resolved.json"))
        .expect("the schema is JSON")
});

/// A validator for one schema of the spec, with every `#/components/...` reference resolvable.
fn validator(schema: Value) -> jsonschema::Validator {
    let mut root = schema;
    root["components"] = SPEC["components"].clone();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&root)
        .expect("the schema compiles")
}

static EVENTS: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    validator(SPEC["paths"]["/v2/events"]["get"]["responses"]["200"]["content"]["application/json"]["schema"].clone())
});
static ERROR: LazyLock<jsonschema::Validator> =
    LazyLock::new(|| validator(json!({"$ref": "#/components/schemas/error"})));

fn assert_valid(validator: &jsonschema::Validator, body: &Value) {
    let problems: Vec<String> = validator
        .iter_errors(body)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(problems.is_empty(), "{problems:#?}\nin {body}");
}

fn config() -> SimConfig {
    let mut config = SimConfig::new(KEY);
    config.admin_key = Some(ADMIN.to_owned());
    config.seed = 42;
    config.epoch = datetime!(2026-06-01 0:00 UTC);
    config.clock = ClockMode::Stepped;
    config.oauth_clients = vec![OAuthClient {
        client_id: "tidemark".into(),
        client_secret: "s3cret".into(),
    }];
    config
}

struct Sim {
    base: String,
    client: reqwest::Client,
    sim: Simulator,
}

impl Sim {
    async fn start(config: SimConfig) -> Self {
        let sim = Simulator::new(config);
        let base = sim.clone().spawn().await.expect("listens");
        Self {
            base,
            client: reqwest::Client::new(),
            sim,
        }
    }

    async fn get(&self, path_and_query: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path_and_query}", self.base))
            .header("API-Key", KEY)
            .send()
            .await
            .expect("request")
    }

    /// A 200 page, validated against the DCSA schema; its events and `Next-Page`.
    async fn page(&self, path_and_query: &str) -> (Vec<Value>, Option<String>) {
        let response = self.get(path_and_query).await;
        assert_eq!(response.status(), 200, "{path_and_query}");
        assert_eq!(response.headers()["api-version"], "2.2.0");
        let next = response
            .headers()
            .get("next-page")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body: Value = response.json().await.expect("JSON");
        assert_valid(&EVENTS, &body);
        (body.as_array().cloned().unwrap_or_default(), next)
    }

    async fn all(&self, path_and_query: &str) -> Vec<Value> {
        self.page(&format!("{path_and_query}&limit=1000")).await.0
    }

    async fn admin(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> reqwest::Response {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .header("Admin-Key", ADMIN);
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send().await.expect("request")
    }

    async fn advance(&self, days: i64) {
        let response = self
            .admin(
                reqwest::Method::POST,
                "/admin/clock",
                Some(json!({"advance_seconds": days * 86_400})),
            )
            .await;
        assert_eq!(response.status(), 200);
    }

    async fn fault(&self, rule: Value) {
        let response = self
            .admin(reqwest::Method::POST, "/admin/faults", Some(rule))
            .await;
        assert_eq!(response.status(), 201);
    }

    async fn error(&self, path_and_query: &str, status: u16) -> Value {
        let response = self.get(path_and_query).await;
        assert_eq!(response.status().as_u16(), status, "{path_and_query}");
        let body: Value = response.json().await.expect("JSON error");
        assert_valid(&ERROR, &body);
        body
    }
}

fn codes(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            let code = e
                .get("transportEventTypeCode")
                .or_else(|| e.get("equipmentEventTypeCode"))
                .or_else(|| e.get("shipmentEventTypeCode"))
                .and_then(Value::as_str)
                .unwrap_or("?");
            format!(
                "{}:{code}",
                e["eventClassifierCode"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

#[tokio::test]
async fn every_answer_fits_the_dcsa_2_2_schema_at_every_stage_of_a_voyage() {
    let sim = Sim::start(config()).await;
    let queries: Vec<String> = (0..40)
        .map(|i| {
            format!(
                "/MAEU/v2/events?transportDocumentReference={:09}",
                586_118_800 + i
            )
        })
        .chain((0..20).map(|i| format!("/MSCU/v2/events?carrierBookingReference=B{i:07}")))
        .chain(["/HLCU/v2/events?equipmentReference=CSQU3054383".to_owned()])
        .chain(["/TEST/v2/events?carrierBookingReference=TEST-TR-SUCCEEDED".to_owned()])
        .collect();
    let mut seen = 0;
    for _ in 0..4 {
        for query in &queries {
            seen += sim.all(query).await.len();
        }
        sim.advance(25).await;
    }
    assert!(seen > 1_000, "only {seen} events checked");
    for (query, status) in [
        ("/MAEU/v2/events?limit=5", 400),
        (
            "/MAEU/v2/events?carrierBookingReference=B1&eventType=PARCEL",
            400,
        ),
        (
            "/MAEU/v2/events?carrierBookingReference=B1&cursor=nope",
            400,
        ),
        ("/MA-U/v2/events?carrierBookingReference=B1", 404),
    ] {
        let error = sim.error(query, status).await;
        assert!(
            error["errors"][0]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
    }
}

#[tokio::test]
async fn the_schema_check_catches_broken_events() {
    let sim = Sim::start(config()).await;
    sim.fault(json!({"kind": "schema_invalid", "times": 1}))
        .await;
    let response = sim
        .get("/MAEU/v2/events?transportDocumentReference=586118841")
        .await;
    let body: Value = response.json().await.expect("JSON");
    assert!(!body.as_array().expect("array").is_empty());
    assert!(
        !EVENTS.is_valid(&body),
        "the validator must refuse what breaks the spec"
    );
}

#[tokio::test]
async fn keys_are_required_and_oauth_tokens_work() {
    let sim = Sim::start(config()).await;
    let url = format!("{}/MAEU/v2/events?carrierBookingReference=B1", sim.base);
    for key in [None, Some("wrong")] {
        let mut request = sim.client.get(&url);
        if let Some(key) = key {
            request = request.header("API-Key", key);
        }
        let response = request.send().await.expect("request");
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert_valid(&ERROR, &response.json().await.expect("JSON"));
    }
    let refused = sim
        .client
        .post(format!("{}/oauth/token", sim.base))
        .form(&[
            ("grant_type", "client_credentials"),
            ("client_id", "tidemark"),
            ("client_secret", "nope"),
        ])
        .send()
        .await
        .expect("request");
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let granted: Value = sim
        .client
        .post(format!("{}/oauth/token", sim.base))
        .basic_auth("tidemark", Some("s3cret"))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("JSON");
    let token = granted["access_token"].as_str().expect("token");
    let response = sim
        .client
        .get(&url)
        .bearer_auth(token)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    sim.advance(1).await;
    let expired = sim
        .client
        .get(&url)
        .bearer_auth(token)
        .send()
        .await
        .expect("request");
    assert_eq!(
        expired.status(),
        StatusCode::UNAUTHORIZED,
        "tokens expire in simulated time"
    );
}

#[tokio::test]
async fn pages_follow_next_page_as_token_or_url() {
    for style in [NextPage::Token, NextPage::Url] {
        let mut config = config();
        config.next_page = style;
        let sim = Sim::start(config).await;
        sim.advance(60).await;
        let query = "/MAEU/v2/events?transportDocumentReference=586118841";
        let everything = sim.all(query).await;
        assert!(everything.len() > 20, "{}", everything.len());
        let mut collected = Vec::new();
        let (mut page, mut next) = sim.page(&format!("{query}&limit=7")).await;
        loop {
            assert!(page.len() <= 7);
            collected.extend(page);
            let Some(link) = next else { break };
            let path = match style {
                NextPage::Token => format!("{query}&limit=7&cursor={link}"),
                NextPage::Url => link,
            };
            (page, next) = sim.page(&path).await;
        }
        assert_eq!(collected, everything, "{style:?}");
    }
}

#[tokio::test]
async fn filters_and_with_each_other_and_or_within_one() {
    let sim = Sim::start(config()).await;
    sim.advance(60).await;
    let base = "/MAEU/v2/events?transportDocumentReference=586118841";
    let all = sim.all(base).await;
    let equipment = sim.all(&format!("{base}&eventType=EQUIPMENT")).await;
    assert!(!equipment.is_empty() && equipment.iter().all(|e| e["eventType"] == "EQUIPMENT"));
    let two = sim
        .all(&format!("{base}&eventType=EQUIPMENT,SHIPMENT"))
        .await;
    assert_eq!(
        two.len(),
        all.iter().filter(|e| e["eventType"] != "TRANSPORT").count()
    );
    let container = equipment[0]["equipmentReference"]
        .as_str()
        .expect("box")
        .to_owned();
    let one_box = sim
        .all(&format!("{base}&equipmentReference={container}"))
        .await;
    assert!(
        one_box
            .iter()
            .all(|e| e["equipmentReference"] == container.as_str())
    );
    let arrivals = sim
        .all(&format!(
            "{base}&eventType=TRANSPORT&transportEventTypeCode=ARRI"
        ))
        .await;
    assert!(
        arrivals
            .iter()
            .all(|e| e["transportEventTypeCode"] == "ARRI")
    );
    let deprecated = sim
        .all("/MAEU/v2/events?transportDocumentID=586118841")
        .await;
    assert_eq!(deprecated, all, "deprecated parameter names still work");
    let voyage = arrivals[0]["transportCall"]["exportVoyageNumber"]
        .as_str()
        .expect("voyage")
        .to_owned();
    let on_voyage = sim
        .all(&format!("{base}&carrierVoyageNumber={voyage}"))
        .await;
    assert!(
        !on_voyage.is_empty()
            && on_voyage
                .iter()
                .all(|e| e["transportCall"]["exportVoyageNumber"] == voyage.as_str())
    );
    assert!(sim.all(&format!("{base}&scheduleID=S1")).await.is_empty());
    let impossible = sim
        .all(&format!(
            "{base}&shipmentEventTypeCode=ISSU&equipmentEventTypeCode=LOAD"
        ))
        .await;
    assert!(
        impossible.is_empty(),
        "contradictory filters give an empty list"
    );
    let later = sim
        .all(&format!(
            "{base}&eventCreatedDateTime:gte=2026-06-15T00:00:00Z"
        ))
        .await;
    assert!(later.len() < all.len());
    assert!(later.iter().all(|e| {
        e["eventCreatedDateTime"]
            .as_str()
            .is_some_and(|t| t >= "2026-06-15")
    }));
    let by_date_desc = sim.all(&format!("{base}&sort=eventDateTime:DESC")).await;
    assert!(
        by_date_desc
            .windows(2)
            .all(|w| w[0]["eventDateTime"].as_str() >= w[1]["eventDateTime"].as_str())
    );
}

#[tokio::test]
async fn the_world_is_deterministic_per_seed() {
    let a = Sim::start(config()).await;
    let b = Sim::start(config()).await;
    let mut other = config();
    other.seed = 43;
    let c = Sim::start(other).await;
    let query = "/ONEY/v2/events?carrierBookingReference=SH9FSK690300";
    for sim in [&a, &b, &c] {
        sim.advance(30).await;
    }
    assert_eq!(a.all(query).await, b.all(query).await);
    assert_ne!(a.all(query).await, c.all(query).await);
}

#[tokio::test]
async fn a_journey_plays_out_as_the_clock_moves() {
    let sim = Sim::start(config()).await;
    let query = "/TEST/v2/events?carrierBookingReference=TEST-TR-JOURNEY";
    let start = codes(&sim.all(query).await);
    assert_eq!(start, ["ACT:RECE"], "booked at the epoch, nothing else yet");
    let mut previous = start.len();
    let mut stages = Vec::new();
    for _ in 0..24 {
        sim.advance(5).await;
        let now = codes(&sim.all(query).await);
        assert!(now.len() >= previous, "events never disappear");
        previous = now.len();
        stages.push(now);
    }
    let last = stages.last().expect("stages");
    for milestone in [
        "ACT:GTOT", "ACT:GTIN", "ACT:LOAD", "ACT:DEPA", "ACT:ARRI", "ACT:DISC", "EST:ARRI",
        "PLN:ARRI",
    ] {
        assert!(
            last.iter().any(|c| c == milestone),
            "{milestone} missing from {last:?}"
        );
    }
    let by_container = sim
        .all("/TEST/v2/events?carrierBookingReference=TEST-TR-JOURNEY&eventType=EQUIPMENT")
        .await;
    let first_box = by_container[0]["equipmentReference"].as_str().expect("box");
    let life: Vec<String> = by_container
        .iter()
        .filter(|e| e["equipmentReference"] == first_box)
        .map(|e| {
            format!(
                "{}:{}",
                e["equipmentEventTypeCode"].as_str().unwrap_or("?"),
                e["emptyIndicatorCode"].as_str().unwrap_or("?")
            )
        })
        .collect();
    assert_eq!(life.first().map(String::as_str), Some("GTOT:EMPTY"));
    assert_eq!(life.last().map(String::as_str), Some("GTIN:EMPTY"));
    assert!(life.contains(&"GTOT:LADEN".to_owned()));
}

#[tokio::test]
async fn the_sandbox_numbers_behave_as_documented() {
    let sim = Sim::start(config()).await;
    let query = |number: &str| format!("/TEST/v2/events?carrierBookingReference={number}");

    let succeeded = sim.all(&query("TEST-TR-SUCCEEDED")).await;
    assert!(succeeded.iter().any(|e| e["eventType"] == "TRANSPORT"));
    assert!(succeeded.iter().any(|e| e["eventType"] == "EQUIPMENT"));
    assert!(sim.all(&query("TEST-TR-NOT-FOUND")).await.is_empty());
    let unknown = sim.error(&query("TEST-TR-FAILED"), 404).await;
    assert_eq!(unknown["statusCode"], 404);
    assert!(unknown["errors"].as_array().is_some_and(|e| !e.is_empty()));

    let first = codes(&sim.all(&query("TEST-TR-AWAITING-MANIFEST")).await);
    assert!(
        first.iter().all(|c| c == "ACT:RECE" || c == "ACT:CONF"),
        "{first:?}"
    );
    let second = sim.all(&query("TEST-TR-AWAITING-MANIFEST")).await;
    assert!(
        second.iter().any(|e| e["eventType"] == "EQUIPMENT"),
        "found on the second check"
    );

    for _ in 0..2 {
        sim.error(&format!("{}&limit=1000", query("TEST-TR-RETRY")), 503)
            .await;
    }
    assert!(
        !sim.all(&query("TEST-TR-RETRY")).await.is_empty(),
        "the third lookup succeeds"
    );
    for _ in 0..5 {
        sim.error(&query("TEST-TR-RETRIES-EXHAUSTED"), 503).await;
    }

    let cancelled = codes(&sim.all(&query("TEST-TR-CANCELLED")).await);
    assert_eq!(cancelled, ["ACT:RECE", "ACT:CONF", "ACT:VOID"]);
    assert_eq!(sim.sim.lookups("TEST", "TEST-TR-RETRY"), 3);
}

#[tokio::test]
async fn faults_are_injected_per_carrier_and_reference() {
    let sim = Sim::start(config()).await;
    sim.advance(40).await;
    let query = "/MAEU/v2/events?transportDocumentReference=586118841";
    let normal = sim.all(query).await;

    sim.fault(json!({"scac": "MAEU", "kind": "server_error", "status": 502, "times": 1}))
        .await;
    sim.error(&format!("{query}&limit=1000"), 502).await;
    assert_eq!(sim.all(query).await, normal, "used up after one answer");

    sim.fault(json!({"reference": "586118841", "kind": "rate_limited", "retry_after_seconds": 7, "times": 1})).await;
    let limited = sim.get(query).await;
    assert_eq!(limited.status(), 429);
    assert_eq!(limited.headers()["retry-after"], "7");
    assert_eq!(
        sim.get("/MAEU/v2/events?transportDocumentReference=OTHER1")
            .await
            .status(),
        200,
        "scoped"
    );

    sim.fault(json!({"kind": "unauthorized", "times": 1})).await;
    sim.error(query, 401).await;

    for kind in ["malformed_json", "truncated_json"] {
        sim.fault(json!({"kind": kind, "times": 1})).await;
        let text = sim.get(query).await.text().await.expect("body");
        assert!(
            serde_json::from_str::<Value>(&text).is_err(),
            "{kind}: {text:.40}"
        );
    }

    sim.fault(json!({"kind": "duplicate", "times": 1})).await;
    assert_eq!(sim.all(query).await.len(), normal.len() * 2);

    sim.fault(json!({"kind": "retract", "times": 1})).await;
    let retracted = sim.all(query).await;
    assert_eq!(retracted.len(), normal.len() - 1);

    sim.fault(json!({"kind": "empty_page", "times": 1})).await;
    let (page, next) = sim.page(&format!("{query}&limit=1000")).await;
    assert!(page.is_empty());
    let (rest, _) = sim
        .page(&format!(
            "{query}&limit=1000&cursor={}",
            next.expect("Next-Page")
        ))
        .await;
    assert_eq!(rest, normal, "the next page holds the answer");

    sim.fault(json!({"kind": "huge", "bytes": 3_000_000, "times": 1}))
        .await;
    let huge = sim.get(query).await.bytes().await.expect("body");
    assert!(huge.len() >= 3_000_000);

    sim.fault(json!({"kind": "slow", "delay_ms": 50, "times": 1}))
        .await;
    assert_eq!(sim.get(query).await.status(), 200);

    sim.fault(json!({"kind": "timeout", "times": 1})).await;
    let gave_up = sim
        .client
        .get(format!("{}{query}", sim.base))
        .header("API-Key", KEY)
        .timeout(Duration::from_millis(300))
        .send()
        .await;
    assert!(gave_up.is_err_and(|e| e.is_timeout()));

    let listed: Value = sim
        .admin(reqwest::Method::GET, "/admin/faults", None)
        .await
        .json()
        .await
        .expect("JSON");
    assert_eq!(listed, json!([]), "every counted fault is used up");
}

#[tokio::test]
async fn faults_can_come_from_the_configuration_and_be_removed() {
    let mut config = config();
    config.faults = vec![
        toml::from_str("scac = \"HLCU\"\nkind = \"server_error\"\nstatus = 503").expect("rule"),
    ];
    let sim = Sim::start(config).await;
    sim.error("/HLCU/v2/events?carrierBookingReference=B1", 503)
        .await;
    sim.error("/HLCU/v2/events?carrierBookingReference=B1", 503)
        .await;
    let listed: Value = sim
        .admin(reqwest::Method::GET, "/admin/faults", None)
        .await
        .json()
        .await
        .expect("JSON");
    let id = listed[0]["id"].as_u64().expect("id");
    let removed = sim
        .admin(
            reqwest::Method::DELETE,
            &format!("/admin/faults/{id}"),
            None,
        )
        .await;
    assert_eq!(removed.status(), 204);
    assert_eq!(
        sim.get("/HLCU/v2/events?carrierBookingReference=B1")
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn the_admin_api_injects_events_moves_time_and_is_guarded() {
    let sim = Sim::start(config()).await;
    let anonymous = sim
        .client
        .get(format!("{}/admin/clock", sim.base))
        .send()
        .await
        .expect("request");
    assert_eq!(anonymous.status(), 401);
    let mut off = config();
    off.admin_key = None;
    let closed = Sim::start(off).await;
    assert_eq!(
        closed
            .admin(reqwest::Method::GET, "/admin/clock", None)
            .await
            .status(),
        404
    );

    let event = json!({
        "eventID": "5e51e72c-d872-11ea-811c-0f8f10a32ea1",
        "eventType": "SHIPMENT", "eventClassifierCode": "ACT",
        "eventCreatedDateTime": "2026-06-02T00:00:00Z", "eventDateTime": "2026-06-02T00:00:00Z",
        "shipmentEventTypeCode": "HOLD", "documentTypeCode": "BKG", "documentID": "INJECTED1",
    });
    let injected = sim
        .admin(
            reqwest::Method::POST,
            "/admin/events",
            Some(json!({"scac": "MAEU", "events": [event]})),
        )
        .await;
    assert_eq!(injected.status(), 201);
    let query = "/MAEU/v2/events?carrierBookingReference=INJECTED1";
    let before = sim.all(query).await;
    assert!(
        before.iter().all(|e| e["shipmentEventTypeCode"] != "HOLD"),
        "not yet created"
    );
    let moved: Value = sim
        .admin(
            reqwest::Method::POST,
            "/admin/clock",
            Some(json!({"set": "2026-06-03T00:00:00Z"})),
        )
        .await
        .json()
        .await
        .expect("JSON");
    assert_eq!(moved["now"], "2026-06-03T00:00:00Z");
    let after = sim.all(query).await;
    assert!(after.iter().any(|e| e["shipmentEventTypeCode"] == "HOLD"));

    let bad = sim
        .admin(
            reqwest::Method::POST,
            "/admin/events",
            Some(json!({"scac": "MAEU", "events": [{"eventType": "SHIPMENT"}]})),
        )
        .await;
    assert_eq!(bad.status(), 400);
    let back = sim
        .admin(
            reqwest::Method::POST,
            "/admin/clock",
            Some(json!({"advance_seconds": -5})),
        )
        .await;
    assert_eq!(back.status(), 400);
    let lookups: Value = sim
        .admin(
            reqwest::Method::GET,
            "/admin/lookups?scac=MAEU&reference=INJECTED1",
            None,
        )
        .await
        .json()
        .await
        .expect("JSON");
    assert_eq!(lookups["lookups"], 2);
    let reset: Value = sim
        .admin(reqwest::Method::POST, "/admin/reset", None)
        .await
        .json()
        .await
        .expect("JSON");
    assert_eq!(reset["now"], "2026-06-01T00:00:00Z");
}
