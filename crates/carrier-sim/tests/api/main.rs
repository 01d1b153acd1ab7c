//! The simulator over real HTTP on loopback: the DCSA 2.2 contract (validated against the
//! official resolved schema), the deterministic world, the clock, the sandbox numbers,
//! fault injection and the admin API.

mod admin;
mod ais;
mod auth;
mod faults;
mod notices;
mod paging;
mod plays;
mod pushes;
mod schema;
mod v3;
mod world;

use std::sync::LazyLock;

use carrier_sim::{ClockMode, OAuthClient, SimConfig, Simulator};
use serde_json::{Value, json};
use time::macros::datetime;

pub(crate) const KEY: &str = "sim-key";
pub(crate) const ADMIN: &str = "sim-admin";

pub(crate) static SPEC: LazyLock<Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../dcsa/TNT_v2.2.0-resolved.json"))
        .expect("the schema is JSON")
});

/// A validator for one schema of the spec, with every `#/components/...` reference resolvable.
pub(crate) fn validator(schema: Value) -> jsonschema::Validator {
    let mut root = schema;
    root["components"] = SPEC["components"].clone();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&root)
        .expect("the schema compiles")
}

pub(crate) static EVENTS: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    validator(SPEC["paths"]["/v2/events"]["get"]["responses"]["200"]["content"]["application/json"]["schema"].clone())
});
pub(crate) static ERROR: LazyLock<jsonschema::Validator> =
    LazyLock::new(|| validator(json!({"$ref": "#/components/schemas/error"})));

pub(crate) fn assert_valid(validator: &jsonschema::Validator, body: &Value) {
    let problems: Vec<String> = validator
        .iter_errors(body)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(problems.is_empty(), "{problems:#?}\nin {body}");
}

/// `response`'s header `name`, as text.
pub(crate) fn header(response: &reqwest::Response, name: &str) -> Option<String> {
    let value = response.headers().get(name)?;
    value.to_str().ok().map(str::to_owned)
}

pub(crate) fn config() -> SimConfig {
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

pub(crate) struct Sim {
    pub(crate) base: String,
    pub(crate) client: reqwest::Client,
    pub(crate) sim: Simulator,
}

impl Sim {
    pub(crate) async fn start(config: SimConfig) -> Self {
        let sim = Simulator::new(config);
        let base = sim.clone().spawn().await.expect("listens");
        Self {
            base,
            client: reqwest::Client::new(),
            sim,
        }
    }

    pub(crate) async fn get(&self, path_and_query: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path_and_query}", self.base))
            .header("API-Key", KEY)
            .send()
            .await
            .expect("request")
    }

    /// A 200 page, validated against the DCSA schema; its events and `Next-Page`.
    pub(crate) async fn page(&self, path_and_query: &str) -> (Vec<Value>, Option<String>) {
        let response = self.get(path_and_query).await;
        assert_eq!(response.status(), 200, "{path_and_query}");
        assert_eq!(response.headers()["api-version"], "2.2.0");
        let next = header(&response, "next-page");
        let body: Value = response.json().await.expect("JSON");
        assert_valid(&EVENTS, &body);
        (body.as_array().cloned().unwrap_or_default(), next)
    }

    pub(crate) async fn all(&self, path_and_query: &str) -> Vec<Value> {
        self.page(&format!("{path_and_query}&limit=1000")).await.0
    }

    pub(crate) async fn admin(
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

    /// [`Sim::admin`]'s answer as JSON.
    pub(crate) async fn admin_json(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Value {
        self.admin(method, path, body)
            .await
            .json()
            .await
            .expect("JSON")
    }

    pub(crate) async fn advance(&self, days: i64) {
        let response = self
            .admin(
                reqwest::Method::POST,
                "/admin/clock",
                Some(json!({"advance_seconds": days * 86_400})),
            )
            .await;
        assert_eq!(response.status(), 200);
    }

    pub(crate) async fn fault(&self, rule: Value) {
        let response = self
            .admin(reqwest::Method::POST, "/admin/faults", Some(rule))
            .await;
        assert_eq!(response.status(), 201);
    }

    pub(crate) async fn error(&self, path_and_query: &str, status: u16) -> Value {
        let response = self.get(path_and_query).await;
        assert_eq!(response.status().as_u16(), status, "{path_and_query}");
        let body: Value = response.json().await.expect("JSON error");
        assert_valid(&ERROR, &body);
        body
    }
}

pub(crate) fn codes(events: &[Value]) -> Vec<String> {
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
